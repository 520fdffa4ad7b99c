#!/bin/sh
# Probe wrapper for conv_bench (not part of the build): the real spdgen, then for a job whose
# flags hold a marker that does not change these jobs' shapes, pass1/pass3 are replaced by
# hand edits of spdgen's own GLSL: `--max-wg 1024` K = 3 line pairs a workgroup, `--max-wg
# 512` K = 2, `--pad-to smooth` twiddles computed once for every channel, `--padding zero`
# both with K = 3, `--input image` the channels in lanes (3 x W invocations): $PROBE_DIR/<image>.<storage>.<variant>.<pass>.spv.
here=$(dirname "$0")
real=$here/F/spdgen
[ -x "$real" ] || real=$here/../build/spdgen
"$real" "$@" || exit $?
out= prev= image= storage=f32
for a in "$@"; do
    [ "$prev" = "-o" ] && out=$a
    [ "$prev" = "--image" ] && image=$a
    [ "$prev" = "--storage" ] && storage=$a
    prev=$a
done
base=${out%.spv}
case " $* " in
*" --max-wg 1024 "*) k=3 v=k3 ;;
*" --max-wg 512 "*) k=2 v=k2 ;;
*" --pad-to smooth "*) k=1 v=k1h ;;
*" --padding zero "*) k=3 v=k3h ;;
*" --input image "*) k=3 v=cl ;;
*" --output image "*) k=1 v=nf ;;
*) exit 0 ;;
esac
for p in pass1 pass3; do
    f=$PROBE_DIR/$image.$storage.$v.$p.spv
    [ -f "$f" ] || { echo "convwrap: no $f" >&2; exit 1; }
    cp "$f" "$base.$p.spv"
    awk -v p=$p -v k=$k '$1 == "shader" && $2 == p && $5 == "wg" { $6 = $6 * k } { print }' \
        "$base.convplan" > "$base.convplan.new" && mv "$base.convplan.new" "$base.convplan"
done
exit 0
