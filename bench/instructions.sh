#!/usr/bin/env bash
# instructions.sh: instructions per particle-step of cairn, LAMMPS and LIGGGHTS on the
# "settled-box-sc" scenario (../shared/bench/SPEC.md), counted by valgrind's callgrind. Instruction
# counts do not depend on the load of the machine, so they can be compared where wall time cannot.
#
# Method: every code runs the scenario twice under callgrind from the same settled packing, with
# the same warm-up W and two timed step counts T1 < T2, and
#     instr_per_particle_step = (Ir(T2) - Ir(T1)) / (N * (T2 - T1))
# where Ir is callgrind's total of instructions executed by the process. The difference cancels
# start-up, file reading, warm-up, run setup and exit exactly, so it counts only timed steps
# (steps W+T1+1 .. W+T2, with whatever neighbour rebuilds fall in them) and needs no
# instrumentation toggles in the foreign binaries. All instructions of the process count,
# libraries (libc, libm, libgomp, MPI) included. One thread for cairn (OMP_NUM_THREADS=1) and one
# rank for the peers (run directly, without mpirun: Debian's lmp and liggghts start as MPI
# singletons).
#
# Usage: bench/instructions.sh       (any working directory; paths come from this file)
# Environment (all optional):
#   SIZES="20"      lattice points per edge: 20 -> N = 8 000, 40 -> 64 000 (80 -> 512 000 only if
#                   OUT/data/settled_n80.data exists, e.g. settled by peers.sh with the same OUT)
#   W=  T1=  T2=    warm-up and the two timed step counts, for every size (defaults per size:
#                   n=20: 200 100 300; n=40: 100 50 150; n=80: 20 10 30)
#   CODES="cairn lammps liggghts"   which codes to count
#   PEERS=0         skip LAMMPS and LIGGGHTS (a '#' note says so)
#   CAIRN=PATH      the cairn binary (default: build/cairn in the repository)
#   KIT=DIR         the benchmark kit (default: ../shared/bench beside the repository)
#   OUT=DIR         where packings, inputs, logs and callgrind files go (default: a new temp dir)
#   NICE=19         niceness of the valgrind runs (counts do not depend on it)
#   SKIP_INSTALL=1  fail instead of apt-installing missing Debian packages (valgrind, lammps,
#                   liggghts, xz-utils), as peers.sh does
# stdout: '#' notes (machine, versions, method, per-run details, warnings), then a header and one
# whitespace-separated row per code and size:
#   code N instr_per_particle_step ratio_to_lammps
# ('-' where a run failed or LAMMPS was not counted). Progress goes to stderr. The exit status is
# non-zero only for setup errors (arguments, missing tools or files), never because of a figure
# or a failed run (those give '-' and a '# WARNING' line).
set -euo pipefail

START_DIR=$PWD
HERE=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
cd "$ROOT"

say() { printf 'instructions.sh: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }
# A path given by the caller, relative to where instructions.sh was started.
from_start() { (cd "$START_DIR" && realpath -m -- "$1"); }

SIZES=${SIZES:-20}
CODES=${CODES:-"cairn lammps liggghts"}
NICE=${NICE:-19}
SCRIPT=bench/granular/settled_box.lua

declare -A DEF_W=([20]=200 [40]=100 [80]=20)
declare -A DEF_T1=([20]=100 [40]=50 [80]=10)
declare -A DEF_T2=([20]=300 [40]=150 [80]=30)

# --- arguments ---------------------------------------------------------------------------------
[[ -n ${SIZES// /} ]] || die "SIZES must not be empty"
for n in $SIZES; do
  [[ -n ${DEF_W[$n]:-} ]] || die "SIZES holds '$n'; SPEC.md defines n = 20, 40 or 80 only"
done
for k in ${W:-0} ${T1:-1} ${T2:-2} $NICE; do
  [[ $k =~ ^[0-9]+$ ]] || die "W, T1, T2 and NICE take whole numbers (got '$k')"
done
for n in $SIZES; do
  t1=${T1:-${DEF_T1[$n]}} t2=${T2:-${DEF_T2[$n]}}
  ((10#$t1 >= 1 && 10#$t2 > 10#$t1)) || die "need 1 <= T1 < T2 (got T1=$t1 T2=$t2 for n=$n)"
done
sorted_words() { local -a w; read -ra w <<<"$1"; printf '%s\n' "${w[@]}" | sort -nu | paste -sd' '; }
SIZES=$(sorted_words "$SIZES")

for code in $CODES; do
  [[ $code == cairn || $code == lammps || $code == liggghts ]] ||
    die "CODES takes 'cairn', 'lammps' and/or 'liggghts' (got '$code')"
done
NOTES=()
if [[ ${PEERS:-1} == 0 ]]; then
  kept=""
  for code in $CODES; do [[ $code == cairn ]] && kept="$kept $code"; done
  [[ $CODES == *lammps* || $CODES == *liggghts* ]] &&
    NOTES+=("# note: PEERS=0: LAMMPS and LIGGGHTS skipped, no ratio to LAMMPS")
  CODES=${kept# }
fi
[[ -n ${CODES// /} ]] || die "nothing to count: CODES is empty (after PEERS=0)"
has_code() { [[ " $CODES " == *" $1 "* ]]; }

if has_code cairn; then
  CAIRN_ARG=${CAIRN:-build/cairn}
  if [[ -n ${CAIRN:-} ]]; then
    if [[ $CAIRN == */* ]]; then CAIRN=$(from_start "$CAIRN"); else CAIRN=$(command -v "$CAIRN" || true); fi
  else
    CAIRN=$ROOT/build/cairn
  fi
  if [[ -z $CAIRN || ! -f $CAIRN || ! -x $CAIRN ]]; then
    say "error: no cairn binary at '${CAIRN:-$CAIRN_ARG}' (CAIRN=$CAIRN_ARG). Build it first, in $ROOT:"
    say "    make build"
    say "  or cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build -j"
    say "  or point CAIRN at a binary you built elsewhere (CAIRN=/path/to/cairn bench/instructions.sh)"
    exit 1
  fi
  [[ -f $SCRIPT ]] || die "$ROOT/$SCRIPT is missing"
fi

if [[ -n ${KIT:-} ]]; then KIT=$(from_start "$KIT"); else KIT=$ROOT/../shared/bench; fi
[[ -d $KIT && -f $KIT/params.in && -d $KIT/lammps && -d $KIT/liggghts ]] ||
  die "no benchmark kit at $KIT (params.in, lammps/, liggghts/); set KIT to it"
KIT=$(cd "$KIT" && pwd -P)
SHARED=$(cd "$KIT/.." && pwd -P)

if [[ -n ${OUT:-} ]]; then
  OUT=$(from_start "$OUT")
else
  OUT=$(mktemp -d "${TMPDIR:-/tmp}/cairn-instructions.XXXXXX")
fi
case "$(realpath -m -- "$OUT")/" in "$SHARED"/*)
  die "OUT ($OUT) lies inside the shared kit ($SHARED); choose a directory outside it" ;;
esac
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd -P)
[[ $OUT != *[[:space:]]* ]] || die "OUT must not contain spaces (LAMMPS variables cannot hold them)"
LOGS="$OUT/logs/instructions-$(date +%Y%m%d-%H%M%S)-$$"
mkdir -p "$OUT/data" "$OUT/work" "$LOGS"

# --- tools: install the Debian packages that are missing, as peers.sh does ---------------------
missing=()
command -v valgrind >/dev/null 2>&1 || missing+=(valgrind)
command -v xz >/dev/null 2>&1 || missing+=(xz-utils)
if has_code lammps; then command -v lmp >/dev/null 2>&1 || missing+=(lammps); fi
if has_code liggghts; then command -v liggghts >/dev/null 2>&1 || missing+=(liggghts); fi
if ((${#missing[@]})); then
  [[ ${SKIP_INSTALL:-0} != 1 ]] ||
    die "missing packages: ${missing[*]}; unset SKIP_INSTALL to install them (or PEERS=0 to skip the peers)"
  command -v apt-get >/dev/null 2>&1 ||
    die "missing ${missing[*]} and no apt-get: install them first (or PEERS=0 to skip the peers)"
  sudo=""
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null 2>&1 ||
      die "missing ${missing[*]}: run as root or install them first (or PEERS=0 to skip the peers)"
    sudo=sudo
  fi
  say "installing missing Debian packages with apt-get: ${missing[*]} (log: $OUT/apt.log)"
  {
    $sudo apt-get update &&
      DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y "${missing[@]}"
  } >"$OUT/apt.log" 2>&1 || die "apt-get failed; see $OUT/apt.log"
fi

# The peers run from copies of the kit's inputs (in.timed takes warm and steps as variables), so
# that nothing they write lands in the kit.
cp "$KIT/params.in" "$OUT/work/"
cp -r "$KIT/lammps" "$KIT/liggghts" "$OUT/work/"
chmod -R u+w "$OUT/work"

# --- packings: the shipped ones, unpacked and checked as peers.sh does -------------------------
expected_sum() { awk -v f="settled_n$1.data" '$2 == f { print $1 }' "$KIT/data/SHA256SUMS" 2>/dev/null; }
for n in $SIZES; do
  f="$OUT/data/settled_n$n.data"
  want=$(expected_sum "$n")
  if [[ ! -s $f ]]; then
    [[ -f $KIT/data/settled_n$n.data.xz ]] ||
      die "no packing for n=$n: neither $f nor $KIT/data/settled_n$n.data.xz (settle it with" \
        "SIZES=$n OUT=$OUT $KIT/peers.sh first)"
    xz -dc "$KIT/data/settled_n$n.data.xz" >"$f.tmp" && mv "$f.tmp" "$f"
  fi
  if [[ -n $want && $(sha256sum "$f" | cut -d' ' -f1) != "$want" ]]; then
    die "$f does not match $KIT/data/SHA256SUMS; remove it (or fetch the kit again)"
  fi
done

# --- notes on the machine and the method --------------------------------------------------------
vg_version=$(valgrind --version 2>/dev/null || echo '?')
cpu=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//' || true)
echo "# settled-box-sc, instructions per particle-step under callgrind," \
  "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, ${cpu:-unknown CPU}," \
  "$(grep -m1 PRETTY_NAME /etc/os-release 2>/dev/null | cut -d'"' -f2 || echo '?')"
echo "# $vg_version (--tool=callgrind, no cache simulation); Ir = total instructions of the process," \
  "libraries included"
if has_code cairn; then
  echo "# cairn: $CAIRN ($("$CAIRN" --version 2>/dev/null | head -n 1 || echo '?'); binary sha256" \
    "$(sha256sum "$CAIRN" | cut -c1-12), built $(date -u -r "$CAIRN" '+%Y-%m-%d %H:%M UTC')), 1" \
    "thread (OMP_NUM_THREADS=1)"
fi
if has_code lammps || has_code liggghts; then
  echo "# peers: $(dpkg-query -W -f '${Package} ${Version}; ' lammps liggghts 2>/dev/null || true)1 rank," \
    "run without mpirun (MPI singleton), inputs $KIT/{lammps,liggghts}/in.timed"
fi
echo "# method: each code runs W warm-up + T timed steps twice from the settled packing, T = T1" \
  "and T2; instr_per_particle_step = (Ir(T2) - Ir(T1)) / (N (T2 - T1)): start-up, reading," \
  "warm-up, run setup and exit cancel; steps W+T1+1..W+T2 of the packing are counted"
echo "# note: callgrind runs the generic x86-64 code paths of the CPU it emulates (no AVX-512);" \
  "short windows catch 0 or 1 neighbour rebuild (the peers rebuild about every 2000 steps at" \
  "n=20), which is listed per run below"
echo "# note: Ir of identical runs scatters by up to about 3e6 instructions for cairn (in start-up" \
  "and in the steps; Lua hashes strings with a time seed) and 3e4 for the peers, so a figure is" \
  "good to about 2e6 / (N (T2 - T1)) per particle-step (given per size below)"
for n in $SIZES; do
  t1=${T1:-${DEF_T1[$n]}} t2=${T2:-${DEF_T2[$n]}}
  echo "# n=$n (N=$((n * n * n))): W=${W:-${DEF_W[$n]}} T1=$t1 T2=$t2$(
    [[ -z ${W:-}${T1:-}${T2:-} ]] || echo ' (set by W/T1/T2)'), scatter about +-$(
    awk -v N=$((n * n * n)) -v d=$((10#$t2 - 10#$t1)) 'BEGIN { printf "%.2g", 2e6 / (N * d) }')" \
    "per particle-step"
done
for line in "${NOTES[@]}"; do echo "$line"; done
say "codes '$CODES', sizes '$SIZES'; OUT=$OUT; logs in $LOGS"

# --- one run under callgrind: prints "Ir z_pp rebuilds" (rebuilds in the timed run) or fails ----
# The callgrind file is named by pid (%p) so that a forked child could not overwrite the main
# process's file; the main process is the one valgrind started (nice, env and valgrind exec).
callgrind() { # tag [VAR=value...] -- cmd...
  local tag=$1 pid st=0
  local -a envs=(OMP_NUM_THREADS=1)
  shift
  while [[ $1 != -- ]]; do envs+=("$1"); shift; done
  shift
  nice -n "$NICE" env "${envs[@]}" valgrind --tool=callgrind \
    --callgrind-out-file="$LOGS/$tag.callgrind.%p" "$@" \
    >"$LOGS/$tag.stdout" 2>"$LOGS/$tag.stderr" &
  pid=$!
  wait "$pid" || st=$?
  if ((st != 0)); then
    say "$tag failed (exit $st); see $LOGS/$tag.stdout and $LOGS/$tag.stderr"
    return 1
  fi
  local f="$LOGS/$tag.callgrind.$pid"
  [[ -s $f ]] || { say "$tag: no callgrind file $f"; return 1; }
  awk '/^totals:/ { t = $2 } /^summary:/ { s = $2 }
       END { v = (t != "") ? t : s; if (v == "") exit 1; print v }' "$f"
}

run_one() { # code n warm steps -> "Ir z_pp rebuilds" on stdout
  local code=$1 n=$2 warm=$3 steps=$4
  local tag="${code}_n${n}_w${warm}_t${steps}" data="$OUT/data/settled_n$n.data" ir
  if [[ $code == cairn ]]; then
    ir=$(callgrind "$tag" CAIRN_BENCH_DATA="$data" CAIRN_BENCH_WARM="$warm" \
      CAIRN_BENCH_TIMED="$steps" CAIRN_BENCH_REP=1 -- "$CAIRN" run "$SCRIPT") || return 1
    # Row: code N threads steps wall_s pstep_s rss_mib z_pp rep; the rebuilds are in the note.
    awk -v ir="$ir" -v f="$LOGS/$tag.stderr" '
      $1 == "cairn" && $2 ~ /^[0-9]+$/ && NF >= 9 { z = $8 }
      END {
        rb = "?"
        while ((getline line < f) > 0)
          if (match(line, /[0-9]+ rebuilds in the timed run/)) rb = substr(line, RSTART, RLENGTH) + 0
        if (z == "") exit 1
        print ir, z, rb
      }' "$LOGS/$tag.stdout" || { say "$tag: no result row in $LOGS/$tag.stdout"; return 1; }
  else
    local exe=lmp
    [[ $code == liggghts ]] && exe=liggghts
    ir=$(cd "$OUT/work/$code" && callgrind "$tag" -- "$exe" -in in.timed -var n "$n" \
      -var data "$data" -var warm "$warm" -var steps "$steps" -log "$LOGS/$tag.log" \
      -screen none) || return 1
    # z_pp at the end of the timed run: the thermo row of the closing 'run 0' (same step), else
    # the last row of the timed run. Not that last row first, as peers.sh takes it: LAMMPS's
    # contact/atom can report half the count after a run's setup until the next neighbour build
    # (seen with W=2000 T=500: 2.20 at the end of the timed run, 4.39 from 'run 0').
    # The neighbour builds of the timed run follow its 'Loop time' (the second one).
    awk -v ir="$ir" '
      /^Loop time of/ { nloop++ }
      NF == 7 && $1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ {
        if (nloop < 2) zt = $5; else if (nloop == 2 && z0 == "") z0 = $5 }
      nloop == 2 && /^Neighbor list builds/ && rb == "" { rb = $NF }
      END {
        z = (z0 != "") ? z0 : zt
        if (nloop < 2 || z == "") exit 1
        print ir, z, (rb == "" ? "?" : rb)
      }' \
      "$LOGS/$tag.log" || { say "$tag: incomplete log $LOGS/$tag.log"; return 1; }
  fi
}

# --- the runs ------------------------------------------------------------------------------------
RESULTS=$LOGS/results.txt # code N W T1 T2 Ir1 Ir2 z1 z2 rb1 rb2 per_pstep ('-' if failed)
: >"$RESULTS"
for n in $SIZES; do
  N=$((n * n * n))
  wu=$((10#${W:-${DEF_W[$n]}})) t1=$((10#${T1:-${DEF_T1[$n]}})) t2=$((10#${T2:-${DEF_T2[$n]}}))
  for code in $CODES; do
    r1="- - -" r2="- - -"
    for t in $t1 $t2; do
      s0=$(date +%s)
      say "$(date +%T) ${code} n=$n: $wu warm-up + $t timed steps under callgrind"
      if r=$(run_one "$code" "$n" "$wu" "$t"); then
        say "  Ir $(awk '{ print $1 }' <<<"$r"), z_pp $(awk '{ print $2 }' <<<"$r"), $(($(date +%s) - s0)) s"
      else
        r="- - -"
      fi
      if ((t == t1)); then r1=$r; else r2=$r; fi
    done
    read -r ir1 z1 rb1 <<<"$r1"
    read -r ir2 z2 rb2 <<<"$r2"
    per=$(awk -v a="$ir1" -v b="$ir2" -v N="$N" -v d="$((t2 - t1))" 'BEGIN {
      if (a !~ /^[0-9]+$/ || b !~ /^[0-9]+$/) { print "-"; exit }
      printf "%.1f", (b - a) / (N * d) }')
    echo "$code $N $wu $t1 $t2 $ir1 $ir2 $z1 $z2 $rb1 $rb2 $per" >>"$RESULTS"
  done
done

# --- report --------------------------------------------------------------------------------------
echo "# per run: Ir at T1 and T2, z_pp at the end of the timed run, neighbour rebuilds in the timed" \
  "run (T1, T2; their difference falls in the counted window)"
awk 'function z(x) { return (x ~ /^[0-9.eE+-]+$/) ? sprintf("%.3f", x) : x }
  { printf "# %-8s N=%-6d W=%d T1=%d T2=%d: Ir %s / %s, z_pp %s / %s, rebuilds %s / %s\n",
           $1, $2, $3, $4, $5, $6, $7, z($8), z($9), $10, $11 }' "$RESULTS"
awk '
  function num(x) { return x ~ /^[0-9.eE+-]+$/ }
  { key[NR] = $1 SUBSEP $2; code[NR] = $1; N[NR] = $2; per[NR] = $12; z[NR] = $9; rb[NR] = $11 - $10
    rbok[NR] = num($10) && num($11)
    if ($1 == "lammps") { lp[$2] = $12; lz[$2] = $9; lrb[$2] = $11 - $10; lrbok[$2] = num($10) && num($11) } }
  END {
    for (i = 1; i <= NR; i++) {
      if (per[i] == "-")
        printf "# WARNING %s at N=%d: a callgrind run failed (see the logs); no figure\n", code[i], N[i]
      if (code[i] == "lammps" || !(N[i] in lz)) continue
      if (num(z[i]) && num(lz[N[i]]) && lz[N[i]] > 0) {
        d = z[i] / lz[N[i]] - 1
        if (d > 0.02 || d < -0.02)
          printf "# WARNING z_pp of %s %.3f differs from LAMMPS %.3f by %+.1f %% (over 2 %%) at N=%d: the runs may not do the same work\n",
                 code[i], z[i], lz[N[i]], 100 * d, N[i]
      }
      if (rbok[i] && lrbok[N[i]] && rb[i] != lrb[N[i]])
        printf "# note: at N=%d the counted window holds %d neighbour rebuild(s) for %s and %d for LAMMPS\n",
               N[i], rb[i], code[i], lrb[N[i]]
    }
    printf "%-9s %7s %23s %15s\n", "code", "N", "instr_per_particle_step", "ratio_to_lammps"
    for (i = 1; i <= NR; i++) {
      l = lp[N[i]]
      r = (num(per[i]) && num(l) && l + 0 > 0) ? sprintf("%.3f", per[i] / l) : "-"
      printf "%-9s %7d %23s %15s\n", code[i], N[i], per[i], r
    }
  }' "$RESULTS"
say "callgrind files, logs and results.txt are in $LOGS"
exit 0
