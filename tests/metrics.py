"""/metrics read as Prometheus reads it, for the tests of what it shows."""

from __future__ import annotations

from django.test import Client
from prometheus_client.parser import text_string_to_metric_families

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def figures(client: Client) -> Samples:
    """Every sample /metrics shows ``client``, by name and labels."""
    response = client.get("/metrics")
    assert response.status_code == 200
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(response.content.decode())
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    """The sample of ``name`` with exactly these labels; 0 where there is none yet."""
    return samples.get((name, frozenset(labels.items())), 0.0)
