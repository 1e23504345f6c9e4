#ifndef LOOKSTUDIO_PNGSHIM_H
#define LOOKSTUDIO_PNGSHIM_H
int lookstudio_png_version(void);
#endif
