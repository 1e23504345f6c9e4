// Tests that drive child processes read their pipes with Pixels' EINTR-safe reader; re-exported so a test target
// that imports the support module has it without naming Pixels.
@_exported import Pixels
