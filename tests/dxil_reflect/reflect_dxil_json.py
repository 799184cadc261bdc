"""`shaderbridge reflect --json` on samples/dxil/store_index_cs_6_0.dxil must carry the
"dxil_program" object with the sample's values, hand-derived from its program
(tests/dxil_writer/make_dxil_sample.c: cs_6_0, numthreads(8,1,1), one raw UAV u0 in
space 0, raw-buffer shader flag, no signature elements); the text output must end
with the one-line summary.

usage: reflect_dxil_json.py SHADERBRIDGE SAMPLE
"""
import json
import subprocess
import sys

EXPECTED_UAV = {
    "class": 1, "class_name": "UAV", "id": 0, "name": "", "space": 0, "lower_bound": 0,
    "range_size": 1, "unbounded": False, "kind": 11, "kind_name": "RawBuffer",
    "element_type": 0, "element_type_name": "Invalid", "struct_stride": 0, "sample_count": 0,
    "globally_coherent": False, "has_counter": False, "rasterizer_ordered": False,
    "atomic64_use": False,
}
EXPECTED_SUMMARY = ('dxil program: cs_6_0, 1 entry point, first "main", 1 resource, '
                    '0 signature elements; agrees with PSV0/ISG1/OSG1/PSG1')


def main():
    cli, sample = sys.argv[1:3]
    failures = []

    def check(what, got, expected):
        if got != expected:
            failures.append("%s: got %r, expected %r" % (what, got, expected))

    doc = json.loads(subprocess.run([cli, "reflect", "--json", sample], check=True,
                                    capture_output=True).stdout)
    program = doc["dxil_program"]
    check("dxil_version", program["dxil_version"], "1.0")
    check("validator_version", program["validator_version"], "1.8")
    check("shader_model", program["shader_model"], "cs_6_0")
    check("shader_kind_name", program["shader_kind_name"], "Compute")
    check("entry count", len(program["entry_points"]), 1)
    entry = program["entry_points"][0]
    check("entry name", entry["name"], "main")
    check("shader_flags", entry["shader_flags"], 16)
    check("shader_flag_names", entry["shader_flag_names"], ["EnableRawAndStructuredBuffers"])
    check("num_threads", entry["num_threads"], [8, 1, 1])
    check("signatures", entry["signatures"],
          {"input": [], "output": [], "patch_constant_or_primitive": []})
    check("resources", entry["resources"], [EXPECTED_UAV])
    check("cbuffer_layouts", program["cbuffer_layouts"], [])
    check("container_check", program["container_check"], {"agrees": True, "disagreements": []})
    # The part JSON is unchanged: PSV0 still says 8x1x1 and "main".
    psv0 = [p for p in doc["dxcontainer"]["parts"] if p["name"] == "PSV0"][0]["decoded"]
    check("psv0 num_threads_x", psv0["runtime_info"]["num_threads_x"], 8)
    check("psv0 entry", psv0["runtime_info"]["entry_function_name"], "main")

    text = subprocess.run([cli, "reflect", sample], check=True, capture_output=True,
                          text=True).stdout
    check("text summary", text.rstrip("\n").splitlines()[-1], EXPECTED_SUMMARY)
    check("text has no dxil_program dump", "dxil_program" in text, False)

    for f in failures:
        print("FAIL: " + f)
    print("reflect_dxil_json: %d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
