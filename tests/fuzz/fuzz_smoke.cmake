# Runs one libFuzzer target for SECONDS on a scratch corpus seeded from SEEDS;
# any crash, leak, timeout or sanitizer report makes the fuzzer (and the test) fail.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
execute_process(COMMAND ${FUZZER} -max_total_time=${SECONDS} -timeout=10 -rss_limit_mb=2048
                        -artifact_prefix=${WORK}/ ${WORK} ${SEEDS}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REGEX MATCH "Done [0-9]+ runs in [0-9]+ second" done "${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${FUZZER} failed (${rc}):\n${err}")
endif()
message(STATUS "${FUZZER}: ${done}")
