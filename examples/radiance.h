/* radiance.h: whether a Radiance HDR (.hdr) file holds every scanline its header promises,
 * checked before stb_image decodes it. Debian 12's stb fills the rows past a truncated file
 * with zeros, and never returns from a run-length scanline the file ends inside (its reads
 * past the end give 0, a span of no values, forever). The walk follows stb's decoder: flat
 * pixels below 8 or from 32768 wide, else scanlines of 2, 2, width (16 bits), then each of
 * the 4 components as runs (a count past 128, one value) and literal spans (a count, that
 * many values; 0 adds none); a scanline that does not start with 2, 2 makes the rest of the
 * file flat pixels. */
#ifndef SPDGEN_EXAMPLES_RADIANCE_H
#define SPDGEN_EXAMPLES_RADIANCE_H

#include <stdio.h>
#include <string.h>

/* 0 when the file at `path` holds all its pixels; else -1 with a line in why. A file that is
 * not Radiance HDR at all, or whose header stb refuses, passes: stb says why. */
static int radiance_whole(const char *path, char *why, size_t why_size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return 0; /* stb reports it */
    char line[256];
    int width = 0, height = 0, ok = 0, rc = 0;
    /* The header: lines up to an empty one, then "-Y H +X W". */
    while (fgets(line, sizeof line, f) && strcmp(line, "\n") != 0) {}
    if (fgets(line, sizeof line, f) && sscanf(line, "-Y %d +X %d", &height, &width) == 2 && width > 0 &&
        height > 0)
        ok = 1;
    long pixels_left = ok ? (long)width * height : 0;
    int rle = width >= 8 && width < 32768;
    for (int j = 0; ok && rle && j < height; j++) {
        int c1 = getc(f), c2 = getc(f), hi = getc(f);
        if (c2 == EOF || hi == EOF) goto truncated;
        if (c1 != 2 || c2 != 2 || (hi & 0x80)) {
            /* stb decodes the whole image again as flat pixels, this one the first */
            if (getc(f) == EOF) goto truncated;
            pixels_left = (long)width * height - 1;
            rle = 0;
            break;
        }
        if (getc(f) == EOF) goto truncated;
        for (int k = 0; k < 4; k++) {
            for (int i = 0; i < width;) {
                int count = getc(f);
                if (count == EOF) goto truncated;
                int run = count > 128;
                count -= run ? 128 : 0;
                if (count > width - i) goto done; /* past the line: stb refuses it */
                for (int n = run ? 1 : count; n > 0; n--)
                    if (getc(f) == EOF) goto truncated;
                i += count;
            }
        }
    }
    if (ok && !rle) {
        long at = ftell(f);
        if (fseek(f, 0, SEEK_END) != 0) goto done;
        if (ftell(f) - at < 4 * pixels_left) goto truncated;
    }
    goto done;
truncated:
    snprintf(why, why_size, "%s: truncated: the header promises %dx%d pixels and the file ends before them",
             path, width, height);
    rc = -1;
done:
    fclose(f);
    return rc;
}

#endif
