#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Turns a `test_vk_pipelines --write-expected` dump into the checked-in
expected-failure list: each line's folded first message is replaced by the
cause it stands for (one row per known cause below); a message with no known
cause keeps the message and is marked UNEXPLAINED, so it cannot slip in.

Usage: explain_failures.py DUMP.tsv HEADER.tsv > pipelines_expected_failures.tsv
(HEADER.tsv: the comment block to keep, normally the current list.)
"""
import sys

# (substring of the folded message, cause) -- first match wins.
CAUSES = [
    ("Invalid back or cross-edge in the CFG",
     "translator: an if without else branches from its then-block into the block that is "
     "also its false target; spirv-val accepts that, Mesa 22.3's SPIR-V parser (lavapipe) "
     "rejects it as a cross-edge: the false edge should go to the merge block"),
    ("Capability (RuntimeDescriptorArray)",
     "device: an unbounded SM5.1 range needs runtimeDescriptorArray, which lavapipe 22.3 "
     "does not offer"),
    ("Capability (SampledImageArrayNonUniformIndexing)",
     "device: NonUniformResourceIndex into a texture/sampler range needs "
     "shaderSampledImageArrayNonUniformIndexing, which lavapipe 22.3 does not offer"),
    ("Capability (StorageBufferArrayNonUniformIndexing)",
     "device: NonUniformResourceIndex into a raw/structured buffer range needs "
     "shaderStorageBufferArrayNonUniformIndexing, which lavapipe 22.3 does not offer"),
    ("Capability (StorageImageArrayNonUniformIndexing)",
     "device: NonUniformResourceIndex into a storage-image range needs "
     "shaderStorageImageArrayNonUniformIndexing, which lavapipe 22.3 does not offer"),
    ("Capability (MinLod)",
     "device: the _cl (LOD clamp) sample forms need shaderResourceMinLod, which lavapipe "
     "22.3 does not offer"),
    ("maxBoundDescriptorSets",
     "device: a register space above 7 needs a descriptor set beyond lavapipe's "
     "maxBoundDescriptorSets (8)"),
    ("descriptorType-03018",
     "device: more storage buffers in one stage than lavapipe's "
     "maxPerStageDescriptorStorageBuffers (32)"),
    ("class linkage is not supported",
     "translator: class linkage (interfaces, fcall, this) is not implemented"),
    ("append/consume counter on the SM",
     "translator: append/consume counters of SM5.1 UAV ranges are not implemented"),
    ("break outside a loop or switch",
     "input: vkd3d's invalid-shader test (break outside a loop); refusing it is right"),
    ("is outside the range",
     "translator: SM5.1 range bounds are inclusive (T0[8:15] holds 8 registers) but the "
     "last register of a range is rejected"),
]


def main():
    dump, header = sys.argv[1], sys.argv[2]
    with open(header) as f:
        for line in f:
            if line.startswith("#"):
                sys.stdout.write(line)
    with open(dump) as f:
        for line in f:
            path, outcome, message = line.rstrip("\n").split("\t", 2)
            cause = next((c for s, c in CAUSES if s in message), None)
            print(f"{path}\t{outcome}\t{cause or 'UNEXPLAINED: ' + message}")


if __name__ == "__main__":
    main()
