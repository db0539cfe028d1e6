#!/usr/bin/env python3
"""Renders the D-Bus API reference (Markdown) from the interface XML and its doc comments.

The XML in dbus/ is the single source of truth: this page is generated from it at build
time, and a test checks that the copy kept in doc/ is the same.

    dbus-doc.py INPUT.xml OUTPUT.md
"""
import re
import sys
import textwrap
import xml.etree.ElementTree as ET


def parse(path):
    """The element tree (with comments) and the file's leading comment, which sits before
    the root element where ElementTree does not keep it."""
    with open(path, "rb") as f:
        data = f.read()
    builder = ET.TreeBuilder(insert_comments=True)
    parser = ET.XMLParser(target=builder)
    parser.feed(data)
    head = re.search(rb"<!--(.*?)-->\s*<node", data, re.S)
    return parser.close(), head.group(1).decode("utf-8") if head else ""


def dedent(comment):
    return textwrap.dedent(comment.strip("\n")).strip()


def signature(element):
    args = []
    for arg in element.findall("arg"):
        direction = arg.get("direction", "in" if element.tag == "method" else "")
        prefix = f"{direction} " if direction else ""
        args.append(f"{prefix}{arg.get('type')} {arg.get('name')}")
    return f"{element.get('name')} ({', '.join(args)})"


def visibility(prop):
    """A property whose changes are not broadcast is private (see the XML's head)."""
    for annotation in prop.findall("annotation"):
        if (annotation.get("name") == "org.freedesktop.DBus.Property.EmitsChangedSignal"
                and annotation.get("value") == "false"):
            return "private: callers allowed org.filemond.subscribe only"
    return "public"


def render(root, head):
    out = []
    for interface in root.findall("interface"):
        name = interface.get("name")
        out.append(f"# {name}\n")
        out.append("Generated from `dbus/org.filemond.Filemond1.xml`; do not edit by hand.\n")
        if head:
            out.append("```\n" + dedent(head) + "\n```\n")
        pending = None
        sections = {"method": [], "signal": [], "property": []}
        for child in interface:
            if child.tag is ET.Comment:
                pending = dedent(child.text)
                continue
            if child.tag not in sections:
                continue
            if pending is None:
                raise SystemExit(f"dbus-doc: {child.tag} {child.get('name')} has no doc comment")
            sections[child.tag].append((child, pending))
            pending = None
        for tag, title in (("method", "Methods"), ("signal", "Signals"), ("property", "Properties")):
            out.append(f"## {title}\n")
            for element, doc in sections[tag]:
                if tag == "property":
                    out.append(f"### {element.get('name')}\n")
                    out.append(f"`{element.get('type')}`, {element.get('access')}, {visibility(element)}\n")
                    text = doc.split(":", 1)[1].strip() if doc.startswith(element.get("name") + ":") else doc
                    out.append(text + "\n")
                else:
                    out.append(f"### {element.get('name')}\n")
                    out.append(f"```\n{signature(element)}\n```\n")
                    lines = doc.split("\n")
                    if lines and lines[0].strip() == element.get("name") + ":":
                        lines = lines[1:]
                    out.append("```\n" + textwrap.dedent("\n".join(lines)).strip() + "\n```\n")
    return "\n".join(out)


def main():
    if len(sys.argv) != 3:
        raise SystemExit("usage: dbus-doc.py INPUT.xml OUTPUT.md")
    text = render(*parse(sys.argv[1]))
    with open(sys.argv[2], "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
