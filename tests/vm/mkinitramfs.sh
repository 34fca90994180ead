#!/bin/sh
# Build the vm-check initramfs: busybox, /init, the module, the tests.
# Usage: mkinitramfs.sh OUT.cpio.gz BUSYBOX INIT MODULE.ko TESTBIN
set -eu
out=$1 busybox=$2 init=$3 ko=$4 bin=$5
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
chmod 755 "$stage"
mkdir -p "$stage/bin" "$stage/proc" "$stage/sys" "$stage/dev" "$stage/tmp"
cp "$busybox" "$stage/bin/busybox"
cp "$init" "$stage/init"
cp "$ko" "$stage/gleam_vgpu.ko"
cp "$bin" "$stage/vgpu_test"
chmod 755 "$stage/init" "$stage/bin/busybox" "$stage/vgpu_test"
(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
	gzip -1 > "$out.tmp"
mv "$out.tmp" "$out"
