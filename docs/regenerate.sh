#!/bin/sh
# Runs every simulation behind the figures of docs/ that come from many balls (the lab tests, the
# grain shapes, the rock examples with the flat-jointed granite and the jointed specimen, the mesh
# studies, the energy pours of `cairn verify`), JOBS at a time, each on one thread, longest
# first, in DIR/<run>/ with its output in DIR/<run>.log; then prints the logs by the doc page
# they feed. A run is bitwise the same on any thread count and on every rerun, so with unchanged
# code this prints the docs' figures exactly (all but the CPU times, which vary from run to run);
# after a change that alters the last bits of a run (the order of a sum, a law's arithmetic) it
# prints the figures to put in their place.
# Usage: docs/regenerate.sh [CAIRN [DIR]]  (CAIRN: default build/cairn; DIR: default regenerated)
# SIZES="small full" (default both; rock_table runs both sizes always; the full sizes take over
# two hours of CPU, granite_2d about 12 minutes at each size), JOBS=2 (runs at once),
# ONLY="name ..." (only these runs: the names in DIR/runs.txt).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cairn=$(cd "$(dirname "${1:-build/cairn}")" && pwd)/$(basename "${1:-build/cairn}")
dir=$(mkdir -p "${2:-regenerated}" && cd "${2:-regenerated}" && pwd)
sizes=${SIZES:-small full}
jobs=${JOBS:-2}
only=${ONLY:-}
ex=$root/examples

# The runs, longest first: name, the page they feed, the command (run in DIR/<name>/).
runs=$dir/runs.txt
: >"$runs"
add() { # add NAME SIZE PAGE COMMAND...
  name=$1 size=$2 page=$3
  shift 3
  case " $sizes both " in *" $size "*) ;; *) return 0 ;; esac
  if [ -n "$only" ]; then
    case " $only " in *" $name "*) ;; *) return 0 ;; esac
  fi
  printf '%s\t%s\t%s\n' "$name" "$page" "$*" >>"$runs"
}
add granite_2d_full full rock.md "ROCK_SIZE=full '$cairn' run '$ex/rock/granite_2d.lua' --quiet"
add rock_table both rock.md "'$ex/rock/table.sh' '$cairn' ."
add biaxial_shape_2d_full full clumps.md \
  "LAB_SIZE=full '$cairn' run '$ex/labtests/biaxial_shape_2d.lua' --quiet"
add lab_triaxial_3d_full full labtests.md "'$ex/labtests/table.sh' '$cairn' . triaxial_3d/full"
add triaxial_hertz_3d_full full labtests.md \
  "LAB_SIZE=full '$cairn' run '$ex/labtests/triaxial_hertz_3d.lua' --quiet"
add ucs_2d_resolution full rock.md "'$cairn' run '$ex/rock/ucs_2d_resolution.lua' --quiet"
add lab_periodic_shear_3d_full full labtests.md \
  "'$ex/labtests/table.sh' '$cairn' . periodic_shear_3d/full"
add cone_penetration_full full meshes.md \
  "MESH_SIZE=full '$cairn' run '$ex/meshes/cone_penetration.lua' --quiet"
add rotating_drum_full full meshes.md \
  "MESH_SIZE=full '$cairn' run '$ex/meshes/rotating_drum.lua' --quiet"
add hopper_beverloo_full full meshes.md \
  "MESH_SIZE=full '$cairn' run '$ex/meshes/hopper_beverloo.lua' --quiet"
add lab_biaxial_2d_full full labtests.md "'$ex/labtests/table.sh' '$cairn' . biaxial_2d/full"
add granite_2d small rock.md "'$cairn' run '$ex/rock/granite_2d.lua' --quiet"
add jointed_2d small rock.md "'$cairn' run '$ex/rock/jointed_2d.lua' --quiet"
add jointed_2d_membrane small rock.md \
  "JOINT_BOUNDARY=membrane '$cairn' run '$ex/rock/jointed_2d.lua' --quiet"
add triaxial_hertz_3d small labtests.md \
  "'$cairn' run '$ex/labtests/triaxial_hertz_3d.lua' --quiet"
add lab_small small labtests.md "'$ex/labtests/table.sh' '$cairn' . small"
add biaxial_shape_2d small clumps.md "'$cairn' run '$ex/labtests/biaxial_shape_2d.lua' --quiet"
add cone_penetration small meshes.md "'$cairn' run '$ex/meshes/cone_penetration.lua' --quiet"
add hopper_beverloo small meshes.md "'$cairn' run '$ex/meshes/hopper_beverloo.lua' --quiet"
add rotating_drum small meshes.md "'$cairn' run '$ex/meshes/rotating_drum.lua' --quiet"
add energy_pours small "scripting.md, contact-models.md, clumps.md" \
  "'$cairn' verify energy_pour_2d energy_pour_3d energy_hertz_pour_2d energy_hertz_pour_3d \
energy_clump_pour_2d energy_clump_pour_3d"

echo "regenerate: $(wc -l <"$runs") runs, $jobs at a time, in $dir"
cd "$dir"
# (each line: name, page, command; a run's failure is reported, the others go on)
cut -f1,3 "$runs" | while IFS='	' read -r name cmd; do
  printf '%s\0%s\0' "$name" "$cmd"
done | xargs -0 -n 2 -P "$jobs" sh -c '
  mkdir -p "$0" && cd "$0" &&
  if OMP_NUM_THREADS=1 sh -c "$1" >"../$0.log" 2>&1; then echo "done: $0"
  else echo "FAILED: $0 (see $0.log)"; fi' || true
cd "$dir"

# What each run printed, by page: the lines the docs' tables and prose take their figures from.
cut -f2 "$runs" | sort -u | while read -r page; do
  echo
  echo "=== docs/$page"
  awk -F '\t' -v p="$page" '$2 == p { print $1 }' "$runs" | while read -r name; do
    echo "--- $name"
    cat "$name.log"
  done
done
