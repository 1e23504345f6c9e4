#include <lcms2.h>

// lcms2's pixel formats are function-like macros, which Swift does not import.
static inline cmsUInt32Number lslcms_type_rgb_flt(void) { return TYPE_RGB_FLT; }
static inline cmsUInt32Number lslcms_type_lab_dbl(void) { return TYPE_Lab_DBL; }
static inline cmsUInt32Number lslcms_type_xyz_flt(void) { return TYPE_XYZ_FLT; }
static inline cmsUInt32Number lslcms_flags_nocache(void) { return cmsFLAGS_NOCACHE; }
static inline cmsUInt32Number lslcms_flags_highres(void) { return cmsFLAGS_HIGHRESPRECALC; }
static inline cmsUInt32Number lslcms_flags_nooptimize(void) { return cmsFLAGS_NOOPTIMIZE; }
