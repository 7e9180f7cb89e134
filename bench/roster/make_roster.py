"""A OneRoster 1.1 bulk CSV export of a large school system, for the roster
import's benchmark (scripts/bench --roster): STUDENTS students in classes of 25,
each in six classes, one teacher per class, a guardian per ten students.

    python3 make_roster.py OUT.zip STUDENTS [--changed]

--changed writes the next term's export of the same school: 5 % of the students
renamed, 5 % moved to another class, 1 % gone (tobedeleted).
"""

import csv
import io
import random
import sys
import zipfile


def rows_to_csv(header, rows):
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue().encode("utf-8")


def main():
    out, students = sys.argv[1], int(sys.argv[2])
    changed = "--changed" in sys.argv
    rng = random.Random(34)
    classes = students * 6 // 25
    renamed = set(rng.sample(range(students), students // 20)) if changed else set()
    moved = set(rng.sample(range(students), students // 20)) if changed else set()
    gone = set(rng.sample(range(students), students // 100)) if changed else set()
    users, enrollments = [], []
    for s in range(students):
        family = f"Family{s}" + ("-Changed" if s in renamed else "")
        status = "tobedeleted" if s in gone else "active"
        users.append([f"stu-{s}", status, "2026-09-01", "true", "org-1", "student",
                      f"student.{s}", f"Given{s}", family, f"student.{s}@school.example"])
    for t in range(classes):
        users.append([f"tea-{t}", "active", "2026-09-01", "true", "org-1", "teacher",
                      f"teacher.{t}", f"Teach{t}", "Er", ""])
    for g in range(students // 10):
        users.append([f"gua-{g}", "active", "2026-09-01", "true", "org-1", "guardian",
                      f"guardian.{g}", f"Guard{g}", "Ian", ""])
    class_rows = [[f"cls-{c}", "active", "2026-09-01", f"Class {c}", f"C{c}", "scheduled", "org-1"]
                  for c in range(classes)]
    for s in range(students):
        for period in range(6):
            c = (s // 25 + period * (classes // 6)) % classes
            if s in moved and period == 0:
                c = (c + 1) % classes
            enrollments.append([f"enr-{s}-{period}", "active", "2026-09-01", f"cls-{c}", "org-1",
                                f"stu-{s}", "student"])
    for t in range(classes):
        enrollments.append([f"enr-t-{t}", "active", "2026-09-01", f"cls-{t}", "org-1", f"tea-{t}", "teacher"])
    manifest = [["manifest.version", "1.0"], ["oneroster.version", "1.1"], ["file.users", "bulk"],
                ["file.classes", "bulk"], ["file.enrollments", "bulk"], ["file.orgs", "absent"]]
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("manifest.csv", rows_to_csv(["propertyName", "value"], manifest))
        z.writestr("users.csv", rows_to_csv(
            ["sourcedId", "status", "dateLastModified", "enabledUser", "orgSourcedIds", "role",
             "username", "givenName", "familyName", "email"], users))
        z.writestr("classes.csv", rows_to_csv(
            ["sourcedId", "status", "dateLastModified", "title", "classCode", "classType", "schoolSourcedId"],
            class_rows))
        z.writestr("enrollments.csv", rows_to_csv(
            ["sourcedId", "status", "dateLastModified", "classSourcedId", "schoolSourcedId",
             "userSourcedId", "role"], enrollments))


main()
