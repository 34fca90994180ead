#!/usr/bin/env python3
"""bench-report.py RESULTS.json: the benchmark table as Markdown, for Documentation/benchmarks.md."""
import json
import sys


def main():
    d = json.load(open(sys.argv[1]))
    res = d["results"]
    by = {(r["workload"], r["link"], r["mode"]): r for r in res}
    links = ["loopback", "10gbit-0.1ms", "1gbit-0.5ms", "300mbit-3ms"]
    works = []
    for r in res:
        if r["workload"] not in works:
            works.append(r["workload"])
    print("Backend: %s.\n" % d["backend"])
    print("| workload | link | direct s | Gleam sync s | Gleam s | T_floor s | Gleam / T_floor | speed-up over sync | wire bytes | waits |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for w in works:
        dr = by.get((w, "none", "direct"))
        for l in links:
            g = by.get((w, l, "gleam"))
            s = by.get((w, l, "gleam-sync"))
            if not g:
                continue
            ratio = g["seconds"] / g["floor_seconds"] if g["floor_seconds"] else float("nan")
            sp = s["seconds"] / g["seconds"] if s and g["seconds"] else float("nan")
            print("| %s | %s | %s | %.4f | %.4f | %.4f | %.2f | %.1fx | %d | %d |" % (
                w, l, "%.4f" % dr["seconds"] if dr else "-", s["seconds"] if s else float("nan"),
                g["seconds"], g["floor_seconds"], ratio, sp, g["wire_bytes"], g["round_trips"]))
    print()
    print("| client cost of cuLaunchKernel | us per call |")
    print("| --- | ---: |")
    for r in res:
        if r["workload"] == "launch-cost" and "us_per_call" in r["detail"]:
            print("| %s, %s | %.2f |" % (r["mode"], r["link"], r["detail"]["us_per_call"]))
    print()
    print("| copy | link | GB/s | share of the link |")
    print("| --- | --- | ---: | ---: |")
    rates = {"10gbit-0.1ms": 10e9, "1gbit-0.5ms": 1e9, "300mbit-3ms": 300e6}
    for r in res:
        if r["workload"] in ("htod", "dtoh") and r["mode"] in ("gleam", "direct"):
            gbs = r["detail"].get("gbytes_per_s", 0)
            share = gbs * 8e9 / rates[r["link"]] if r["link"] in rates else float("nan")
            print("| %s %s | %s | %.3f | %s |" % (r["workload"], r["mode"], r["link"], gbs,
                                                 "%.0f%%" % (share * 100) if share == share else "-"))
    torch_phases(res)
    for f in d.get("failures", []):
        print("\nFailed: %s, %s, %s: %s" % (f["workload"], f["link"], f["mode"], f["error"]))
    for n in d.get("notes", []):
        print("\nNote: %s" % n)


def torch_phases(res):
    """The PyTorch rows' phases: whole process, library load, first and steady inference."""
    rows = [r for r in res if r["workload"].startswith("torch:")]
    if not rows:
        return
    print()
    print("| PyTorch workload | link | mode | CUDA init s | model.to(cuda) s | first s | steady s (n) | whole process s | wire bytes |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        x = r["detail"]
        print("| %s | %s | %s | %.3f | %.3f | %.4f | %.5f (%d) | %.1f | %d |" % (
            r["workload"], r["link"], r["mode"], x.get("cuda_init_s", 0), x.get("load_s", 0),
            x.get("first_s", 0), x.get("steady_mean_s", 0), x.get("steady_n", 0),
            x.get("wall_s", 0), r["wire_bytes"]))


if __name__ == "__main__":
    main()
