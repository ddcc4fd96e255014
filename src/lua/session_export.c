/* The shared library's own object: everything else comes from the static library, linked whole
   (CMakeLists.txt), so the exported CAIRN_API functions are those of cairn.h and session.h. */
#include "cairn/session.h"
