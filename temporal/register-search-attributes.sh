#!/bin/sh
# Registers arrgo's custom search attributes (temporal/search-attributes.json) on a namespace of an
# existing Temporal server. Used by the compose stack; the dev server gets them as start flags.
# Usage: register-search-attributes.sh <address> <namespace> <search-attributes.json>
set -eu
address="${1:-temporal:7233}"
namespace="${2:-default}"
file="${3:-/etc/arrgo/search-attributes.json}"

until temporal operator cluster health --address "$address" >/dev/null 2>&1; do
  echo "waiting for Temporal at $address"
  sleep 2
done
temporal operator namespace describe --address "$address" --namespace "$namespace" >/dev/null 2>&1 ||
  temporal operator namespace create --address "$address" --namespace "$namespace" --retention 7d

# The file holds one "Name": "Type" pair per line.
sed -n 's/^[[:space:]]*"\([A-Za-z0-9_]*\)":[[:space:]]*"\([A-Za-z]*\)".*/\1 \2/p' "$file" |
  while read -r name type; do
    if temporal operator search-attribute list --address "$address" --namespace "$namespace" | grep -q "^ *$name "; then
      echo "search attribute $name already registered"
    else
      temporal operator search-attribute create --address "$address" --namespace "$namespace" --name "$name" --type "$type"
    fi
  done
echo "search attributes registered on $namespace"
