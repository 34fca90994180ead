#!/bin/sh
# Build the vm-check initramfs: busybox, /init, the module, the tests, and
# Gleam itself under /gleam (gleamd, gleamctl, libcuda.so.1, the test
# programs with their kernels and expected outputs), with the shared
# libraries those binaries use copied from this machine (ldd).
# Usage: mkinitramfs.sh OUT.cpio.gz BUSYBOX INIT MODULE.ko TESTBIN \
#        GLEAM_SH VM_CUDA BUILD EXPECTED_DIR
set -eu
out=$1 busybox=$2 init=$3 ko=$4 bin=$5 gleam_sh=$6 vm_cuda=$7 build=$8 expected=$9
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
chmod 755 "$stage"
mkdir -p "$stage/bin" "$stage/proc" "$stage/sys" "$stage/dev" "$stage/tmp"
cp "$busybox" "$stage/bin/busybox"
cp "$init" "$stage/init"
cp "$ko" "$stage/gleam_vgpu.ko"
cp "$bin" "$stage/vgpu_test"
chmod 755 "$stage/init" "$stage/bin/busybox" "$stage/vgpu_test"

g=$stage/gleam
mkdir -p "$g/bin" "$g/lib" "$g/tests/programs" "$g/tests/kernels" "$g/expected"
cp "$build/bin/gleamd" "$build/bin/gleamctl" "$g/bin/"
cp "$build/lib/libcuda.so.1" "$g/lib/"
for f in "$build"/tests/programs/*; do
	case $f in *.o|*.d) continue ;; esac
	[ -x "$f" ] && cp "$f" "$g/tests/programs/"
done
cp "$build"/tests/kernels/* "$g/tests/kernels/"
cp "$expected"/*.out "$g/expected/"
cp "$gleam_sh" "$g/gleam.sh"
cp "$vm_cuda" "$g/vm_cuda"
chmod 755 "$g/gleam.sh"

# The libraries and the loader, at the paths this machine has them.
for f in "$g/bin/gleamd" "$g/bin/gleamctl" "$g/lib/libcuda.so.1" "$g/vm_cuda" \
	"$g"/tests/programs/*; do
	ldd "$f" 2>/dev/null | awk '/=> \// { print $3 } /^[ \t]*\// { print $1 }'
done | sort -u | while read -r lib; do
	mkdir -p "$stage$(dirname "$lib")"
	cp -L "$lib" "$stage$lib"
done

(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
	gzip -1 > "$out.tmp"
mv "$out.tmp" "$out"
