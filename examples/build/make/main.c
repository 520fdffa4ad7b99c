/* main.c: a program built with the contract header spdgen generated beside it. */
#include <stdio.h>

#include "hiz.h"

int main(void)
{
    printf("hiz: %u levels for 1920x1080, %ux%u workgroups, %u words of SPIR-V\n",
           hiz_mip_count(1920, 1080), HIZ_GRID_X(1920u), HIZ_GRID_Y(1080u), HIZ_SPIRV_WORDS);
    return 0;
}
