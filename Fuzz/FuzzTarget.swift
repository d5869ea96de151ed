import Foundation

/// The libFuzzer entry point: the first byte picks the parser, the rest is its input.
///
/// 0: `LinkHeader`, 1: `RetryAfter` (and the HTTP dates behind it), 2: `PageCursor`
/// through `JSONDecoder`. Any crash, hang or slow input is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let selector = bytes.first else { return 0 }
    let input = Data(bytes.dropFirst())
    let text = String(decoding: input, as: UTF8.self)
    switch selector % 3 {
    case 0:
        let header = LinkHeader(
            text,
            relativeTo: URL(string: "https://api.example.com/repos/o/r/issues?page=2")
        )
        for link in header.links {
            precondition(!link.relations.contains(""), "empty relation type")
            precondition(link.url.scheme != nil, "unresolved target")
        }
    case 1:
        if case .seconds(let seconds) = RetryAfter(text) {
            precondition(seconds >= 0, "negative Retry-After")
        }
    default:
        _ = try? JSONDecoder().decode([PageCursor?].self, from: input)
    }
    return 0
}
