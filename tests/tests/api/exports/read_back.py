"""Reads an export back with libraries other than the ones that wrote it (Python's
csv module, openpyxl, zipfile) and prints what it holds as JSON, for
tests/tests/api/exports.rs to compare with the Results feed.

Usage: read_back.py RESULTS.csv RESULTS.xlsx GRADEBOOK.zip
"""

import csv
import datetime
import io
import json
import sys
import zipfile

import openpyxl


def plain(value):
    if isinstance(value, datetime.datetime):
        return value.isoformat()
    return value


def read_csv(path):
    with open(path, encoding="utf-8", newline="") as f:
        text = f.read()
    return {
        "bom": text.startswith("\ufeff"),
        "rows": list(csv.reader(io.StringIO(text.lstrip("\ufeff")))),
    }


def read_xlsx(path):
    book = openpyxl.load_workbook(path)
    sheets = {}
    for sheet in book.worksheets:
        rows = []
        for row in sheet.iter_rows():
            rows.append(
                [
                    {
                        "value": plain(cell.value),
                        "type": cell.data_type,
                        "quote_prefix": bool(cell.quotePrefix),
                    }
                    for cell in row
                ]
            )
        sheets[sheet.title] = {
            "rows": rows,
            "charts": [type(chart).__name__ for chart in sheet._charts],
        }
    return sheets


def read_gradebook(path):
    files = {}
    with zipfile.ZipFile(path) as archive:
        for name in archive.namelist():
            text = archive.read(name).decode("utf-8")
            files[name] = list(csv.DictReader(io.StringIO(text)))
    return files


print(
    json.dumps(
        {
            "csv": read_csv(sys.argv[1]),
            "xlsx": read_xlsx(sys.argv[2]),
            "oneroster": read_gradebook(sys.argv[3]),
        }
    )
)
