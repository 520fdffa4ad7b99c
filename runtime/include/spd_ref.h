/* spd_ref.h: the SPD reference's declarations now live in spdrt_spd.h with the rest of the
 * SPD API; this name is kept so engines that include it keep building. */
#ifndef SPD_REF_H
#define SPD_REF_H
#include "spdrt_spd.h"
#endif
