"""Run under gdb: counts the kit's source files one traced load passes through.

Every function of LoadingKit and LoadingKitNetworking gets a breakpoint that records
the source file of the function entered, between the two `getppid()` markers. Compiler
-made helpers (value witnesses, outlined copies, thunks) are left out: they belong to
no file a reader opens.
"""
import gdb
import os
import re
import subprocess

exe = os.environ["TRACE_EXECUTABLE"]
sources = os.environ["TRACE_SOURCES"].rstrip("/") + "/"
generated = re.compile(
    r"(WO[a-z]+|Wl|Tm|TA|TR|TW|Mi|Ma|Mn|Mr|MF|wca|wxx|wcp|wta|wtk|wet|wst|wug|wup|wui)$"
)

symbols = []
for line in subprocess.run(["nm", exe], capture_output=True, text=True).stdout.splitlines():
    fields = line.split()
    if len(fields) != 3 or fields[1] not in "tT":
        continue
    name = fields[2]
    if name.startswith(("$s10LoadingKit", "$s20LoadingKitNetworking")) and not generated.search(name):
        symbols.append((int(fields[0], 16), name))

tracing = [False]
entries = []


class Marker(gdb.Breakpoint):
    def stop(self):
        tracing[0] = not tracing[0]
        return False


class Entry(gdb.Breakpoint):
    def stop(self):
        if tracing[0]:
            line = gdb.find_pc_line(gdb.selected_frame().pc())
            if line.symtab and line.symtab.filename.startswith(sources):
                entries.append((line.symtab.filename[len(sources):], self.symbol))
        return False


gdb.execute("set pagination off")
gdb.execute("set confirm off")
gdb.execute("starti")
base = next(
    int(line.split()[0], 16)
    for line in gdb.execute("info proc mappings", to_string=True).splitlines()
    if line.rstrip().endswith("/" + os.path.basename(exe))
)
Marker("getppid", internal=True)
for offset, name in symbols:
    Entry("*" + hex(base + offset), internal=True).symbol = name
gdb.execute("continue")

visits = []
for file, _ in entries:
    if not visits or visits[-1] != file:
        visits.append(file)
files = list(dict.fromkeys(visits))
print(f"functions entered: {len(entries)}")
print(f"files: {len(files)} ({sum(f.startswith('LoadingKit/') for f in files)} in LoadingKit)")
print(f"switches between files: {len(visits) - 1}")
print(f"files entered again: {sum(visits.count(f) > 1 for f in files)}")
names = sorted({symbol for _, symbol in entries})
demangled = dict(
    zip(
        names,
        subprocess.run(
            ["swift", "demangle", "--simplified", "--compact"],
            input="\n".join(names),
            capture_output=True,
            text=True,
        ).stdout.splitlines(),
    )
)
acquisitions = sum(1 for _, symbol in entries if demangled.get(symbol, "").startswith("Locked.withLock<"))
made = sum(1 for _, symbol in entries if demangled.get(symbol, "").startswith("static Locked.Storage.holding("))
print(f"lock acquisitions: {acquisitions} (locks made: {made})")
for file in files:
    print(f"  {visits.count(file):3d} × {file}")
