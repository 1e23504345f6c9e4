// libjpeg-turbo's TurboJPEG API (Debian: libturbojpeg0-dev). 2.1 has no ICC or scanline calls, so ImageIO
// parses and writes the APP1/APP2 markers itself and decodes JPEG images whole.
#include <turbojpeg.h>
