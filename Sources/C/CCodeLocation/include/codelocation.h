#ifndef LOOKSTUDIO_CODELOCATION_H
#define LOOKSTUDIO_CODELOCATION_H

/// The path of the executable or shared library this function was linked into, as the dynamic loader knows it
/// (dladdr: for a shared library its path, for the main program often argv[0]), or NULL. Swift's Glibc module
/// does not declare dladdr (a _GNU_SOURCE function), hence this C file.
const char *lscode_image_path(void);

#endif
