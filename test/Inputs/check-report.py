"""Checks a cuda-async-lint report against its documented schema.

  check-report.py json FILE   the JSON schema, version 1 (docs/usage.md)
  check-report.py sarif FILE  the SARIF 2.1.0 properties the contract needs

Exits non-zero, naming the first violation, if the report does not conform.
"""
import json
import sys


def fail(message):
    sys.exit("report does not conform: " + message)


def expect(condition, message):
    if not condition:
        fail(message)


def check_location(loc, where):
    expect(isinstance(loc, dict), where + " is not an object")
    for key, kind in (("file", str), ("line", int), ("column", int),
                      ("offset", int)):
        expect(isinstance(loc.get(key), kind), "%s.%s" % (where, key))
    expect(loc["line"] >= 1 and loc["column"] >= 1, where + " is not 1-based")


def check_json(doc):
    expect(doc.get("version") == 1, "version is not 1")
    expect(doc.get("tool", {}).get("name") == "cuda-async-lint", "tool.name")
    expect(isinstance(doc.get("tool", {}).get("version"), str), "tool.version")
    for i, f in enumerate(doc["findings"]):
        where = "findings[%d]" % i
        expect(f.get("check", "").startswith("cuda-async-"), where + ".check")
        expect(f.get("severity") == "warning", where + ".severity")
        expect(isinstance(f.get("message"), str) and f["message"],
               where + ".message")
        check_location(f.get("location"), where + ".location")
        for j, note in enumerate(f["notes"]):
            expect(isinstance(note.get("message"), str), where + ".notes")
            check_location(note.get("location"), "%s.notes[%d]" % (where, j))
        for fix in f["fixes"]:
            for key in ("file", "offset", "length", "replacement"):
                expect(key in fix, where + ".fixes." + key)
        expect(isinstance(f.get("fingerprint"), str), where + ".fingerprint")
    for e in doc["errors"]:
        expect(isinstance(e.get("file"), str) and isinstance(
            e.get("reason"), str) and isinstance(e.get("message"), str),
            "errors[]")
    summary = doc["summary"]
    expect(summary["findings"] == len(doc["findings"]), "summary.findings")
    expect(summary["failedFiles"] == len(doc["errors"]), "summary.failedFiles")


def check_sarif(doc):
    expect(doc.get("version") == "2.1.0", "version is not 2.1.0")
    expect(len(doc.get("runs", [])) == 1, "not exactly one run")
    run = doc["runs"][0]
    driver = run["tool"]["driver"]
    for key in ("name", "version", "informationUri", "rules"):
        expect(key in driver, "tool.driver." + key)
    rule_ids = []
    for rule in driver["rules"]:
        for key in ("id", "shortDescription", "fullDescription", "help",
                    "helpUri", "defaultConfiguration"):
            expect(key in rule, "rule %s lacks %s" % (rule.get("id"), key))
        expect(rule["defaultConfiguration"].get("level") == "warning",
               "rule level")
        rule_ids.append(rule["id"])
    for i, result in enumerate(run["results"]):
        where = "results[%d]" % i
        expect(result.get("ruleId") in rule_ids, where + ".ruleId")
        expect(rule_ids[result["ruleIndex"]] == result["ruleId"],
               where + ".ruleIndex")
        expect(result.get("level") == "warning", where + ".level")
        expect(result.get("message", {}).get("text"), where + ".message")
        expect(len(result.get("locations", [])) == 1, where + ".locations")
        region = result["locations"][0]["physicalLocation"]["region"]
        expect(region.get("startLine", 0) >= 1, where + ".region.startLine")
        expect(result.get("partialFingerprints"), where + ".partialFingerprints")
        for related in result.get("relatedLocations", []):
            expect(related.get("message", {}).get("text"),
                   where + ".relatedLocations.message")


kind, path = sys.argv[1], sys.argv[2]
with open(path) as f:
    document = json.load(f)
{"json": check_json, "sarif": check_sarif}[kind](document)
print("report conforms: %s" % kind)
