#!/usr/bin/env bash
# Checks the README's promise on a fresh Debian 12: builds a minimal bookworm root with
# debootstrap, clones this repository's committed main into it (with ../shared bind-mounted
# read-only when present), and runs the two README commands there (tools/demo.sh, then
# .ci/run). Needs root and network access to Debian's archive. Takes a few minutes; not part
# of the test suite.
#   tools/fresh_machine_check.sh [ROOT_DIR]     (default /tmp/onnx-infer-fresh)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
root="${1:-/tmp/onnx-infer-fresh}"
command -v debootstrap >/dev/null || { apt-get update -qq && apt-get install -y -qq debootstrap; }
if [[ ! -x "$root/bin/bash" ]]; then
  debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian
fi
cleanup() {
  for m in work/shared dev sys proc; do umount -R "$root/$m" 2>/dev/null || true; done
}
trap cleanup EXIT
mount -t proc proc "$root/proc"
mount --rbind /sys "$root/sys"
mount --rbind /dev "$root/dev"
cp /etc/resolv.conf "$root/etc/resolv.conf"
mkdir -p "$root/work/shared"
if [[ -d "$repo/../shared" ]]; then
  mount --bind "$repo/../shared" "$root/work/shared"
  mount -o remount,bind,ro "$root/work/shared"
fi
rm -rf "$root/work/main"
git clone -q "$repo" "$root/work/main"
chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root CI=true \
  /bin/bash -c 'cd /work/main && tools/demo.sh && bash .ci/run'
