#!/usr/bin/env python3
"""Round trip through Model Explorer's own classes: a recording's snapshot and stored profile,
exported by `fusescope export --model-explorer`, loaded with the `ai-edge-model-explorer`
package (its JSON GraphCollection loader and its graph / node-data dataclasses, strictly typed
through dacite as the package itself builds them) and checked: node ids unique, every edge from
a node of the graph, every node-data id a node, each profiled kernel's mean time on the node
that produces its result.

usage: model_explorer_check.py FUSESCOPE [MODEL]
Exits 77 (a skip for ctest) when the package is not importable.
"""

import json
import os
import subprocess
import sys
import tempfile


def run(*command):
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({result.returncode}): {result.stderr.strip()}")
    return result.stdout


def main():
    fusescope = sys.argv[1]
    model = sys.argv[2] if len(sys.argv) > 2 else "sample:mlp"
    try:
        import dacite
        from model_explorer import graph_builder
        from model_explorer import node_data_builder
        from model_explorer.hfgraph.main import to_collection
    except ImportError as error:
        print(f"SKIP: the ai-edge-model-explorer package is not importable ({error})")
        sys.exit(77)
    strict = dacite.Config(strict=True)
    with tempfile.TemporaryDirectory() as work:
        run_file = os.path.join(work, "run.fsdb")
        run(fusescope, "compile", model, "-o", run_file)
        profile = json.loads(run(fusescope, "profile", run_file, "--device", "cpu", "--reps", "5",
                                 "--warmup", "1", "--save", "--json"))
        out = os.path.join(work, "me")
        exported = json.loads(run(fusescope, "export", run_file, "--model-explorer", out, "--json"))

        with open(os.path.join(out, "graph.json"), encoding="utf-8") as f:
            graph_json = json.load(f)
        collection = to_collection(graph_json, "fallback")
        strict_collection = dacite.from_dict(graph_builder.GraphCollection, graph_json, config=strict)
        assert len(collection.graphs) == 1 and len(strict_collection.graphs) == 1
        graph = collection.graphs[0]
        assert graph.id == exported["graph_id"], (graph.id, exported["graph_id"])
        ids = [node.id for node in graph.nodes]
        assert len(ids) == len(set(ids)), "node ids are not unique"
        assert len(ids) == exported["nodes"], (len(ids), exported["nodes"])
        nodes = {node.id: node for node in graph.nodes}
        edges = 0
        for node in graph.nodes:
            for edge in node.incomingEdges:
                assert edge.sourceNodeId in nodes, f"edge into {node.id} from unknown {edge.sourceNodeId}"
                edges += 1
        assert edges == exported["edges"], (edges, exported["edges"])
        layers = {node.namespace for node in graph.nodes if node.namespace}

        with open(os.path.join(out, "node_data.json"), encoding="utf-8") as f:
            data_json = json.load(f)
        model_data = node_data_builder.ModelNodeData(graphsData={
            key: dacite.from_dict(node_data_builder.GraphNodeData, value, config=strict)
            for key, value in data_json.items()
        })
        assert list(model_data.graphsData) == [graph.id], list(model_data.graphsData)
        data = model_data.graphsData[graph.id]
        assert data.gradient[0].stop == 0 and data.gradient[-1].stop == 1
        values = {key: result.value for key, result in data.results.items()}
        assert values and all(key in nodes for key in values), "node data names no node"
        # Each kernel's mean time: on its own node, or (a fusion, which is a layer) on the node
        # of its layer that produces its result.
        checked = 0
        for kernel in profile["kernels"]:
            mean = kernel["time_us"]["mean"]
            key = str(kernel["instruction_id"])
            if key not in nodes:
                in_layer = [k for k, v in values.items()
                            if nodes[k].namespace.split("/")[-1] == kernel["name"]]
                assert len(in_layer) == 1, (kernel["name"], in_layer)
                key = in_layer[0]
            assert abs(values[key] - mean) <= 1e-6 * max(1.0, mean), (kernel["name"], values[key], mean)
            checked += 1
        assert checked == len(values) == exported["values"], (checked, len(values), exported["values"])
        # The package writes the same data back.
        written = json.loads(model_data.to_json_string())
        assert written[graph.id]["results"] == data_json[graph.id]["results"]
        print(f"model explorer round trip: graph {graph.id}: {len(ids)} nodes, {edges} edges, "
              f"{len(layers)} layers; node data: {len(values)} values read back, "
              f"{checked} kernels matched (sum {sum(values.values()):.1f} us per run)")
        for key, value in sorted(values.items(), key=lambda item: -item[1])[:5]:
            print(f"  node {key} ({nodes[key].label}, {nodes[key].namespace or '-'}): {value:.2f} us")


if __name__ == "__main__":
    main()
