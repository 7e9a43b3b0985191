# Parses a Prometheus text exposition from stdin with the official Python client's parser (Debian package
# python3-prometheus-client) and prints the families as JSON: an independent reader of what prom-client wrote.
import json
import sys

from prometheus_client.parser import text_string_to_metric_families

families = []
for f in text_string_to_metric_families(sys.stdin.read()):
    families.append({
        "name": f.name,
        "type": f.type,
        "help": f.documentation,
        "samples": [{"name": s.name, "labels": s.labels, "value": s.value} for s in f.samples],
    })
json.dump(families, sys.stdout)
