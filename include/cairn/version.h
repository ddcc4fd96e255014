/* cairn version numbers. */
#ifndef CAIRN_VERSION_H
#define CAIRN_VERSION_H

#define CAIRN_VERSION_MAJOR 0
#define CAIRN_VERSION_MINOR 1
#define CAIRN_VERSION_PATCH 0
#define CAIRN_VERSION_STRING "0.1.0"

#endif
