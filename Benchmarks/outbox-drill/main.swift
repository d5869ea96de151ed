import Foundation

// The outbox kill drill: writes kept until sent, with the writing process killed
// (SIGKILL) at random instants and started again, against a loopback server that
// counts the writes it applies by `Idempotency-Key`. It ends with every accepted
// write applied exactly once, or exits 1 and says which were not.
//
//     swift run -c release loadingkit-outbox-drill --writes 1000 --seed 7
//
// The same executable is the writing process, started with `--child`.

let arguments = CommandLine.arguments
if arguments.contains("--child") {
    await DrillChild(arguments: arguments).run()
} else {
    var drill = DrillParent(arguments: arguments)
    exit(await drill.run() ? 0 : 1)
}
