"""Checks a cuda-async-lint report against its documented schema.

  check-report.py json FILE   the JSON schema, version 1 (docs/usage.md)
  check-report.py sarif FILE  the SARIF 2.1.0 properties the contract needs
  check-report.py rdjson FILE reviewdog's Diagnostic Format (DiagnosticResult)
  check-report.py codeclimate FILE  the Code Climate issues GitLab reads

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
    for key in ("name", "version", "rules"):
        expect(key in driver, "tool.driver." + key)
    # Links only where the documentation is published (--docs-url); never
    # to the disk of the machine that wrote the report.
    expect("file://" not in driver.get("informationUri", ""),
           "tool.driver.informationUri is a local file")
    rule_ids = []
    for rule in driver["rules"]:
        for key in ("id", "shortDescription", "fullDescription", "help",
                    "defaultConfiguration"):
            expect(key in rule, "rule %s lacks %s" % (rule.get("id"), key))
        expect(rule["help"].get("text") and rule["help"].get("markdown"),
               "rule %s help" % rule.get("id"))
        expect("file://" not in rule.get("helpUri", ""),
               "rule %s helpUri is a local file" % rule.get("id"))
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


def check_position(pos, where):
    expect(isinstance(pos.get("line"), int) and pos["line"] >= 1,
           where + ".line")
    expect(isinstance(pos.get("column"), int) and pos["column"] >= 1,
           where + ".column")


def check_rdjson(doc):
    expect(doc.get("source", {}).get("name") == "cuda-async-lint",
           "source.name")
    for i, d in enumerate(doc["diagnostics"]):
        where = "diagnostics[%d]" % i
        expect(isinstance(d.get("message"), str) and d["message"],
               where + ".message")
        expect(d.get("severity") in ("ERROR", "WARNING", "INFO"),
               where + ".severity")
        expect(isinstance(d["location"].get("path"), str), where + ".path")
        if "range" in d["location"]:
            check_position(d["location"]["range"]["start"], where + ".start")
        if d["severity"] == "WARNING":
            expect(d.get("code", {}).get("value", "").startswith(
                "cuda-async-"), where + ".code.value")
            # A link only where the documentation is published.
            expect(d["code"].get("url", ".md").endswith(
                (d["code"]["value"] + ".md", d["code"]["value"] + ".html",
                 ".md")) and "file://" not in d["code"].get("url", ""),
                where + ".code.url")
        for j, s in enumerate(d.get("suggestions", [])):
            check_position(s["range"]["start"], "%s.suggestions[%d]" % (
                where, j))
            check_position(s["range"]["end"], "%s.suggestions[%d]" % (
                where, j))
            expect(isinstance(s.get("text"), str), where + ".suggestions.text")
        for r in d.get("related_locations", []):
            expect(isinstance(r.get("message"), str), where + ".related")


def check_codeclimate(doc):
    expect(isinstance(doc, list), "not an array of issues")
    prints = set()
    for i, issue in enumerate(doc):
        where = "[%d]" % i
        for key in ("description", "check_name", "fingerprint"):
            expect(isinstance(issue.get(key), str) and issue[key],
                   where + "." + key)
        expect(issue.get("severity") in ("info", "minor", "major", "critical",
                                         "blocker"), where + ".severity")
        expect(issue["fingerprint"] not in prints, where + " fingerprint repeats")
        prints.add(issue["fingerprint"])
        loc = issue.get("location", {})
        expect(isinstance(loc.get("path"), str), where + ".location.path")
        expect(loc.get("lines", {}).get("begin", 0) >= 1,
               where + ".location.lines.begin")


kind, path = sys.argv[1], sys.argv[2]
with open(path) as f:
    document = json.load(f)
{"json": check_json, "sarif": check_sarif, "rdjson": check_rdjson,
 "codeclimate": check_codeclimate}[kind](document)
print("report conforms: %s" % kind)
