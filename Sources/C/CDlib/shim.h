// dlib is C++ only: nothing here is imported into Swift. This target exists to carry dlib's pkg-config flags
// (headers and the -ldlib -lblas -llapack link line) to CFaceDetect, which includes dlib itself.
