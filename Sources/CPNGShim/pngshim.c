#include "pngshim.h"
#include <png.h>
int lookstudio_png_version(void) { return (int)png_access_version_number(); }
