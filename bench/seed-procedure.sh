#!/usr/bin/env bash
# The seeds' own Stage 3 (ValidateReturn) procedure, Steps 1-6 of
# ../shared/seeds/subagent-return-validation.md, as a command file would run it:
# one jq process per check. The reference that `returnlint check` is timed against.
#
# Usage: seed-procedure.sh RETURN_FILE EXPECTED_SESSION_ID TARGET_AGENT
# Run it from the project root: artifact paths in the return are relative to it.
# Exit 0 when the return passes, 1 when a step fails.
set -u
JQ=${JQ:-jq}

subagent_return=$(cat "$1")
expected_session_id=$2
target_agent=$3

# Step 1: Validate JSON Structure
if ! echo "$subagent_return" | "$JQ" empty 2>/dev/null; then
  echo "[FAIL] Invalid JSON return from ${target_agent}"
  echo "Error: Cannot parse return as JSON"
  echo "Recommendation: Fix ${target_agent} subagent return format"
  exit 1
fi
echo "[PASS] Return is valid JSON"

# Step 2: Validate Required Fields
required_fields=("status" "summary" "artifacts" "metadata")
for field in "${required_fields[@]}"; do
  if ! echo "$subagent_return" | "$JQ" -e ".$field" >/dev/null 2>&1; then
    echo "[FAIL] Missing required field: $field"
    echo "Error: Subagent return validation failed"
    echo "Recommendation: Fix ${target_agent} subagent to include all required fields"
    exit 1
  fi
done
metadata_fields=("session_id" "agent_type" "delegation_depth" "delegation_path")
for field in "${metadata_fields[@]}"; do
  if ! echo "$subagent_return" | "$JQ" -e ".metadata.$field" >/dev/null 2>&1; then
    echo "[FAIL] Missing required metadata field: $field"
    echo "Error: Subagent return validation failed"
    echo "Recommendation: Fix ${target_agent} subagent to include all required metadata fields"
    exit 1
  fi
done
echo "[PASS] All required fields present"

# Step 3: Validate Status Field
status=$(echo "$subagent_return" | "$JQ" -r '.status')
valid_statuses=("completed" "partial" "failed" "blocked")
if [[ ! " ${valid_statuses[*]} " =~ " ${status} " ]]; then
  echo "[FAIL] Invalid status: $status"
  echo "Valid statuses: completed, partial, failed, blocked"
  echo "Error: Subagent return validation failed"
  echo "Recommendation: Fix ${target_agent} subagent to use valid status enum"
  exit 1
fi
echo "[PASS] Status is valid: $status"

# Step 4: Validate Session ID
returned_session_id=$(echo "$subagent_return" | "$JQ" -r '.metadata.session_id')
if [ "$returned_session_id" != "$expected_session_id" ]; then
  echo "[FAIL] Session ID mismatch"
  echo "Expected: $expected_session_id"
  echo "Got: $returned_session_id"
  echo "Error: Subagent return validation failed"
  echo "Recommendation: Fix ${target_agent} subagent to return correct session_id"
  exit 1
fi
echo "[PASS] Session ID matches"

# Step 5: Validate Artifacts (only when status is completed)
if [ "$status" == "completed" ]; then
  artifact_count=$(echo "$subagent_return" | "$JQ" '.artifacts | length')
  if [ "$artifact_count" -eq 0 ]; then
    echo "[FAIL] Agent returned 'completed' status but created no artifacts"
    echo "Error: Phantom work detected - status=completed but no artifacts"
    echo "Recommendation: Verify ${target_agent} creates artifacts before updating status"
    exit 1
  fi
  echo "[INFO] Artifact count: $artifact_count"

  artifact_paths=$(echo "$subagent_return" | "$JQ" -r '.artifacts[].path')
  for path in $artifact_paths; do
    if [ ! -f "$path" ]; then
      echo "[FAIL] Artifact does not exist: $path"
      echo "Error: Subagent claimed to create artifact but file does not exist"
      echo "Recommendation: Verify ${target_agent} writes artifacts to correct paths"
      exit 1
    fi
    echo "[PASS] Artifact exists: $path"
  done

  for path in $artifact_paths; do
    if [ ! -s "$path" ]; then
      echo "[FAIL] Artifact is empty: $path"
      echo "Error: Subagent created file but wrote no content"
      echo "Recommendation: Verify ${target_agent} writes content to artifacts"
      exit 1
    fi
    file_size=$(stat -c%s "$path" 2>/dev/null || stat -f%z "$path")
    echo "[PASS] Artifact is non-empty: $path ($file_size bytes)"
  done
  echo "[PASS] $artifact_count artifacts validated"
else
  echo "[INFO] Skipping artifact validation (status=$status)"
  echo "Note: Partial/failed/blocked status may have empty or incomplete artifacts"
fi

# Step 6: Validation Summary
echo "[PASS] Return validation succeeded"
echo "Status: $status"
if [ "$status" == "completed" ]; then
  echo "Artifacts: $artifact_count validated"
fi
