#!/usr/bin/env python3
"""A CPU model, not a GPU measurement: the buckets a cuckoo miss reads, with and without an
overflow filter (issue 34's misses; the idea is the Horton table's, Breslow et al. 2016).

The table: buckets of 8 slots, 2 functions, a key placed in its first bucket with room, else by
random-walk eviction, as the hash lab's bucketed table builds. A miss stops at its first bucket
when that has an empty slot (1.41 buckets a miss at load 0.8, which run 132 measured on the H100
too). The filter: a few bits a bucket, in an array apart from the table (a byte a bucket is 5.2 MB
at 2^25 keys: within the H100's 50 MB L2); a key stored in its second bucket sets bit fp(key) of
its first bucket's bits, and a miss reads its second bucket only when its first is full and its
own bit there is set. Bits are only ever set, so a key that moves back leaves its bit: the filter
errs towards reading, never towards missing a key.

Usage: python3 miss_filter_model.py   (2^17 keys, a few seconds)
"""
import random


def model(keys, slots=8, load=0.8, bits=8, seed=1):
    rnd = random.Random(seed)
    buckets = int(keys / load / slots)
    bucket_of = lambda k, i: hash((k, i, seed)) % buckets
    fp = lambda k: ((k * 0x9E3779B97F4A7C15 + seed) % 2**64) >> 58 & (bits - 1)
    table = [[] for _ in range(buckets)]
    flag = [0] * buckets  # any key of this first bucket stored in its second
    filt = [0] * buckets  # the filter's bits

    def note(k, b):
        if b != bucket_of(k, 0):
            flag[bucket_of(k, 0)] = 1
            filt[bucket_of(k, 0)] |= 1 << fp(k)

    for k in rnd.sample(range(1 << 40), keys):
        b0, b1 = bucket_of(k, 0), bucket_of(k, 1)
        if len(table[b0]) < slots:
            table[b0].append(k)
            continue
        if len(table[b1]) < slots:
            table[b1].append(k)
            note(k, b1)
            continue
        key, at = k, b1
        for _ in range(1000):
            v = rnd.randrange(slots)
            victim, table[at][v] = table[at][v], key
            note(key, at)
            other = bucket_of(victim, 1) if at == bucket_of(victim, 0) else bucket_of(victim, 0)
            if len(table[other]) < slots:
                table[other].append(victim)
                note(victim, other)
                break
            key, at = victim, other
        else:
            raise RuntimeError("the build failed")

    queries = 200000
    plain = flagged = filtered = 0
    for q in range(queries):
        k = (1 << 41) + q  # absent: every key built is below 2^40
        b = bucket_of(k, 0)
        full = len(table[b]) == slots
        plain += 1 + full
        flagged += 1 + (full and flag[b])
        filtered += 1 + (full and filt[b] >> fp(k) & 1)
    return plain / queries, flagged / queries, filtered / queries


if __name__ == "__main__":
    print("load  bits  buckets a miss: plain, one flag a bucket, the filter")
    for load in (0.8, 0.89):
        for bits in (8, 16):
            p, f, b = model(1 << 17, load=load, bits=bits)
            print(f"{load:4}  {bits:4}  {p:.3f}  {f:.3f}  {b:.3f}")
