import Foundation

// The disk cache kill drill: processes writing stored values into one directory are
// killed (SIGKILL) at random instants, alone and two at a time, then two run side by
// side to the end. It ends with no temporary file left once a store opens, and the
// directory within its cap, or exits 1 and says what was wrong.
//
//     swift run -c release loadingkit-cache-drill --kills 1000 --seed 7
//
// The same executable is the writing process, started with `--child`.

let arguments = CommandLine.arguments
if arguments.contains("--child") {
    CacheDrillChild(arguments: arguments).run()
} else {
    exit(CacheDrillParent(arguments: arguments).run() ? 0 : 1)
}
