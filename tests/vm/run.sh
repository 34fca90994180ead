#!/bin/sh
# Boot KERNEL with INITRAMFS under QEMU (software emulation unless VM_ACCEL
# says otherwise), keep the console log in OUTDIR, and pass only if the VM
# printed the PASS line.  The benchmark lines go to OUTDIR/bench.txt.
# Usage: run.sh KERNEL INITRAMFS OUTDIR
# Environment: VM_SEED (default: time), VM_ACCEL (tcg), VM_SMP (2),
# VM_MEM (512M), VM_TIMEOUT (seconds, 600), QEMU.
set -u
kernel=$1 initramfs=$2 outdir=$3
seed=${VM_SEED:-$(date +%s)}
qemu=${QEMU:-qemu-system-x86_64}
log=$outdir/console.log

mkdir -p "$outdir"
echo "vm-check: $kernel, seed $seed (VM_SEED=$seed reproduces it)"
timeout "${VM_TIMEOUT:-600}" "$qemu" \
	-accel "${VM_ACCEL:-tcg}" -smp "${VM_SMP:-2}" -m "${VM_MEM:-512M}" \
	-nographic -no-reboot \
	-kernel "$kernel" -initrd "$initramfs" \
	-append "console=ttyS0 panic=-1 oops=panic panic_on_warn=1 loglevel=4 gleam.seed=$seed" \
	</dev/null 2>&1 | tr -d '\r' | tee "$log" |
	grep -E '^(ok|not ok|# |  FAIL|  BENCH|  fuzz|  echoed|  session|  waiters|  programs|[0-9]+ passed|GLEAM-VM-RESULT|vgpu_test:|kernel )'
grep '  BENCH' "$log" | sed 's/^  //' > "$outdir/bench.txt"
if grep -q '^GLEAM-VM-RESULT: PASS' "$log"; then
	echo "vm-check: PASS"
	exit 0
fi
echo "vm-check: FAIL (console log: $log)"
tail -n 40 "$log"
exit 1
