import Foundation

let status = await DemoCommand.run(
    arguments: Array(CommandLine.arguments.dropFirst()),
    output: StandardOutput()
)
exit(status)
