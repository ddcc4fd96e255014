#!/usr/bin/env bash
# The MPI tests (ctest label mpi; tests/CMakeLists.txt): runs cairn under mpirun on several rank
# counts (oversubscribed: this machine has 2 cores) and compares what each run wrote with a run
# on one rank, byte for byte.
#
#   run.sh CAIRN MPIEXEC compare SCRIPT SPEC...   SPEC: N (ranks), N:threads=T, N:grid=X,Y,Z,
#                                                 N:piece=BYTES (MPI transfers in such pieces)
#   run.sh CAIRN MPIEXEC saverestore SCRIPT       save on 4 ranks, restore on 4, 3, 2 and 1
#   run.sh CAIRN MPIEXEC errors SCRIPT            failures: printed once, non-zero exit, no hang
#   run.sh CAIRN MPIEXEC files SCRIPT NP FILE...  the files a script writes, on NP ranks (NP: a
#                                                 count, or counts with commas: 2,3)
#   run.sh CAIRN MPIEXEC crash SCRIPT PLUGIN_DIR  a plugin crashing on rank 1: status 3, one message
#   run.sh CAIRN MPIEXEC collective SCRIPT        collective calls out of step: status 1, one message
set -euo pipefail
CAIRN=$1 MPIEXEC=$2 MODE=$3 SCRIPT=$4
shift 4
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# (no MPI progress threads spinning on the 2 cores while ranks wait for each other)
export OMPI_MCA_mpi_yield_when_idle=1
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# run DIR NP [ENV=VALUE...]: the script in DIR on NP ranks (1: without mpirun), with OMP threads 1
run() {
  local dir=$1 np=$2
  shift 2
  mkdir -p "$dir"
  local envs=(OMP_NUM_THREADS=1 "$@") xs=()
  for e in "${envs[@]}"; do xs+=(-x "${e%%=*}"); done
  if [[ $np == 1 ]]; then
    (cd "$dir" && env "${envs[@]}" "$CAIRN" run --quiet "$SCRIPT")
  else
    (cd "$dir" && env "${envs[@]}" timeout 300 "$MPIEXEC" -np "$np" "${xs[@]}" "$CAIRN" run --quiet "$SCRIPT")
  fi
}

same() { # the files of two runs
  local a=$1 b=$2 what=$3
  for f in dump.txt history.csv figures.txt; do
    [[ -f $a/$f ]] || continue
    cmp -s "$a/$f" "$b/$f" || fail "$what: $f differs from the one-rank run ($(cmp "$a/$f" "$b/$f" 2>&1 | head -1))"
  done
}

# vtk_same ONE NP_DIR NP: the VTK series of the two runs hold the same snapshots (when there are
# any); a divided model's written in pieces (vtk_same.py)
vtk_same() {
  compgen -G "$1/*.pvd" > /dev/null || return 0
  python3 "$(dirname "$0")/vtk_same.py" "$1" "$2" "$3" || fail "$3 ranks: the VTK series differ"
  # cairn render reads the pieces (where VTK's Python modules and xvfb-run are installed)
  /usr/bin/python3 -c "import vtkmodules" 2> /dev/null && command -v xvfb-run > /dev/null || return 0
  for pvd in "$2"/*.pvd; do
    "$CAIRN" render "$pvd" "$2/render.png" > /dev/null || fail "$3 ranks: cairn render $pvd failed"
    [[ -s $2/render.png ]] || fail "$3 ranks: cairn render $pvd drew nothing"
    rm "$2/render.png"
  done
  echo "ok: cairn render draws the series written on $3 ranks"
}

case $MODE in
compare)
  run "$WORK/1" 1 || fail "the one-rank run failed"
  [[ -s $WORK/1/dump.txt ]] || fail "the one-rank run wrote no dump"
  for spec in "$@"; do
    np=${spec%%:*} envs=()
    [[ $spec == *:threads=* ]] && envs+=(OMP_NUM_THREADS="${spec##*threads=}")
    [[ $spec == *:grid=* ]] && envs+=(CAIRN_MPI_GRID="${spec##*grid=}")
    [[ $spec == *:piece=* ]] && envs+=(CAIRN_MPI_PIECE="${spec##*piece=}")
    dir="$WORK/$(echo "$spec" | tr ':=,' '___')"
    run "$dir" "$np" "${envs[@]}" 2> "$dir.err" || { cat "$dir.err" >&2; fail "$spec: the run failed"; }
    cat "$dir.err" >&2
    grep -q "decomposed true" "$dir.err" || fail "$spec: the model was not decomposed"
    same "$WORK/1" "$dir" "$spec"
    vtk_same "$WORK/1" "$dir" "$np"
    echo "ok: $spec gives the one-rank run's files bit for bit"
  done
  ;;
saverestore)
  run "$WORK/straight" 1 PHASE=straight || fail "the straight run failed"
  run "$WORK/saved" 4 PHASE=save || fail "the save on 4 ranks failed"
  grep -q PRTS "$WORK/saved/state.sav" || fail "the save on 4 ranks is not in the ranks' parts"
  for np in 4 3 2 1; do
    mkdir -p "$WORK/r$np" && cp "$WORK/saved/state.sav" "$WORK/r$np/"
    run "$WORK/r$np" "$np" PHASE=restore || fail "the restore on $np failed"
    same "$WORK/straight" "$WORK/r$np" "saved on 4, restored on $np"
    cmp "$WORK/straight/mid.sav" "$WORK/r$np/again.sav" ||
      fail "saved on 4, restored on $np and saved whole: not the one-process file"
    echo "ok: saved on 4 ranks, restored on $np: the one-process model, and the uninterrupted run's dump, bit for bit"
  done
  ;;
errors)
  for case in rank1 domain grid; do
    mkdir -p "$WORK/$case"
    start=$(date +%s)
    set +e
    grid=$([[ $case == grid ]] && echo 3,1,1 || echo "") # (3 bricks for 2 ranks: refused)
    (cd "$WORK/$case" && env CASE=$case CAIRN_MPI_GRID=$grid OMP_NUM_THREADS=1 timeout 60 \
      "$MPIEXEC" -np 2 -x CASE -x CAIRN_MPI_GRID -x OMP_NUM_THREADS "$CAIRN" run --quiet \
      "$SCRIPT") > "$WORK/$case.out" 2> "$WORK/$case.err"
    rc=$?
    set -e
    took=$(( $(date +%s) - start ))
    [[ $rc != 0 ]] || fail "$case: the run ended with status 0"
    [[ $rc != 124 ]] || fail "$case: the run hung (stopped after 60 s)"
    case $case in
      rank1) want="failure happens on rank 1 alone" ;;
      domain) want="left the model domain" ;;
      grid) want="CAIRN_MPI_GRID='3,1,1' cannot divide the model over 2 ranks" ;;
    esac
    n=$(grep -c "$want" "$WORK/$case.err" || true)
    [[ $n == 1 ]] || { cat "$WORK/$case.err" >&2; fail "$case: the message is printed $n times, not once"; }
    grep -q "errors.lua:" "$WORK/$case.err" || fail "$case: the message does not name the script"
    echo "ok: $case: status $rc after $took s, the message once: $(grep "$want" "$WORK/$case.err")"
  done
  ;;
files)
  nps=$1
  shift
  run "$WORK/1" 1 > "$WORK/1.out" || fail "the one-rank run failed"
  for np in ${nps//,/ }; do
    run "$WORK/$np" "$np" > "$WORK/$np.out" || fail "the run on $np ranks failed"
    for f in "$@"; do
      [[ -s $WORK/1/$f ]] || fail "the one-rank run wrote no $f"
      cmp "$WORK/1/$f" "$WORK/$np/$f" || fail "$f differs on $np ranks"
      echo "ok: $f on $np ranks is the one-rank run's, bit for bit"
    done
    vtk_same "$WORK/1" "$WORK/$np" "$np"
  done
  ;;
collective)
  for spec in save:2 cycle:2 order:2 pcall:2 history:2 callback:2 save:3; do
    case=${spec%%:*} np=${spec##*:}
    mkdir -p "$WORK/$spec"
    start=$(date +%s)
    set +e
    (cd "$WORK/$spec" && env CASE=$case OMP_NUM_THREADS=1 timeout 20 "$MPIEXEC" -np "$np" -x CASE \
      -x OMP_NUM_THREADS "$CAIRN" run --quiet "$SCRIPT") > "$WORK/$spec.out" 2> "$WORK/$spec.err"
    rc=$?
    set -e
    took=$(( $(date +%s) - start ))
    [[ $rc != 124 ]] || fail "$spec: the run hung (stopped after 20 s)"
    [[ $rc == 1 ]] || { cat "$WORK/$spec.err" >&2; fail "$spec: exit status $rc, not 1"; }
    case $spec in
      save:2) want="collective.lua:15: rank 0 called model.save while rank 1 reached the end of the script: " ;;
      cycle:2) want="collective.lua:19: rank 0 called model.cycle while rank 1 called model.save (/[^ ]*collective.lua:21): " ;;
      order:2) want="collective.lua:26: rank 0 called vtk.write while rank 1 called history.export (/[^ ]*collective.lua:29): " ;;
      pcall:2) want="collective.lua:34: rank 0 called model.save while rank 1 called model.cycle (/[^ ]*collective.lua:36): " ;;
      history:2) want="collective.lua:40: rank 0 called history.export while rank 1 called ball.pos, which the rank that owns it answers (/[^ ]*collective.lua:42): " ;;
      callback:2) want="collective.lua:48: rank 0 called ball.pos, which the rank that owns it answers while rank 1 returned from the after_force callbacks: " ;;
      save:3) want="collective.lua:15: rank 0 called model.save while ranks 1-2 reached the end of the script: " ;;
    esac
    want="$want""collective calls must be made by every rank, in the same order"
    n=$(grep -c "$want" "$WORK/$spec.err" || true)
    [[ $n == 1 ]] || { cat "$WORK/$spec.err" >&2; fail "$spec: the message is printed $n times, not once"; }
    echo "ok: $spec: status $rc after $took s, the message once: $(grep "$want" "$WORK/$spec.err")"
  done
  ;;
crash)
  start=$(date +%s)
  set +e
  (cd "$WORK" && env CAIRN_TEST_PLUGINS="$1" OMP_NUM_THREADS=1 timeout 60 "$MPIEXEC" -np 2 \
    -x CAIRN_TEST_PLUGINS -x OMP_NUM_THREADS "$CAIRN" run --quiet "$SCRIPT") > "$WORK/out" \
    2> "$WORK/err"
  rc=$?
  set -e
  took=$(( $(date +%s) - start ))
  [[ $rc != 124 ]] || fail "the run hung (stopped after 60 s)"
  [[ $rc == 3 ]] || { cat "$WORK/err" >&2; fail "exit status $rc, not 3 (a plugin crashed)"; }
  want="cairn: the plugin [^ ]*libcrasher.so crashed with a segmentation fault (SIGSEGV) in contact model 'crasher', function force"
  n=$(grep -c "$want" "$WORK/err" || true)
  [[ $n == 1 ]] || { cat "$WORK/err" >&2; fail "the crash is reported $n times, not once"; }
  ! grep -q FAILED "$WORK/out" || fail "the run went on after the crash"
  echo "ok: status 3 after $took s, the message once: $(grep "$want" "$WORK/err")"
  ;;
*) fail "unknown mode $MODE" ;;
esac
