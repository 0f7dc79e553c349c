#!/usr/bin/env python3
"""Checks one run of a peer's own test suite against onnx_infer (tools/test.sh's `peers` part).

usage: check_peers.py SUITE PEER.jsonl OURS.jsonl CLASSES.tsv

PEER.jsonl and OURS.jsonl are the per-test records of ../shared/peer-suites/run.sh (one JSON
object a line: nodeid, outcome). CLASSES.tsv (python/peer_classes/) lists, per test, why we
deliberately differ: `test_name<TAB>class: reason<TAB>the spec's words`; a name ending in `*`
covers every test it starts; a parametrized test matches its bare name.

Prints the suite's row (tests, peer passes, we pass) and every test the peer passes and we do
not, with its reason. Exits 1 when such a test has no reason listed (a regression, or a
difference nobody has judged yet); entries that no longer differ are listed as stale, which is
not a failure (the file should be trimmed).
"""
import json
import sys


def load(path):
    with open(path) as f:
        return {r["nodeid"]: r for r in map(json.loads, f) if r.get("nodeid")}


def load_classes(path):
    classes = []
    with open(path) as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            name, reason, *detail = line.rstrip("\n").split("\t")
            classes.append((name, reason, detail[0] if detail else ""))
    return classes


def reason_for(nodeid, classes):
    name = nodeid.split("::")[-1]
    bare = name.split("[")[0]
    for pattern, reason, _ in classes:
        if pattern in (name, bare) or (pattern.endswith("*") and name.startswith(pattern[:-1])):
            return pattern, reason
    return None, None


def main(argv):
    if len(argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    suite, peer_path, ours_path, classes_path = argv[1:]
    peer, ours, classes = load(peer_path), load(ours_path), load_classes(classes_path)
    passed = lambda r: r is not None and r["outcome"] == "passed"
    skipped = lambda r: r is not None and r["outcome"] == "skipped"
    tests = [i for i in sorted(set(peer) | set(ours))
             if not (skipped(peer.get(i)) and skipped(ours.get(i)))]
    peer_only = [i for i in tests if passed(peer.get(i)) and not passed(ours.get(i))]
    print(f"peers: {suite}: {len(tests)} tests, the peer passes "
          f"{sum(passed(peer.get(i)) for i in tests)}, we pass "
          f"{sum(passed(ours.get(i)) for i in tests)}; the peer only: {len(peer_only)}")
    used, unexplained = set(), []
    for i in peer_only:
        pattern, reason = reason_for(i, classes)
        if reason is None:
            unexplained.append(i)
            r = ours.get(i) or {}
            print(f"  UNEXPLAINED {i.split('::')[-1]}: {r.get('outcome', 'missing')} "
                  f"{r.get('exc', '')} {r.get('msg', '')[:300]!r}")
        else:
            used.add(pattern)
            print(f"  {i.split('::')[-1]}: {reason}")
    for pattern, _, _ in classes:
        if pattern not in used:
            print(f"  stale (no longer differs): {pattern}")
    if unexplained:
        print(f"peers: {suite}: {len(unexplained)} tests the peer passes fail with us for no "
              f"listed reason ({classes_path})")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
