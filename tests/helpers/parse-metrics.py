# Parses a Prometheus text exposition from stdin with the official Python client's parser (Debian package
# python3-prometheus-client) and prints the families as JSON: an independent reader of what prom-client wrote.
import json
import math
import sys

from prometheus_client.parser import text_string_to_metric_families

families = []
for f in text_string_to_metric_families(sys.stdin.read()):
    families.append({
        "name": f.name,
        "type": f.type,
        "help": f.documentation,
        # JSON has no NaN or infinities (a gauge with no sample yet reads NaN): they travel as "nan", "inf", "-inf".
        "samples": [{"name": s.name, "labels": s.labels, "value": s.value if math.isfinite(s.value) else str(s.value)} for s in f.samples],
    })
json.dump(families, sys.stdout)
