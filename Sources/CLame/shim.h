// libmp3lame (the LAME MP3 encoder) for Swift: the header imports as is;
// Debian ships no pkg-config file, so the module map links it.
#ifndef PREVIEWD_CLAME_SHIM_H
#define PREVIEWD_CLAME_SHIM_H
#include <lame/lame.h>
#endif
