import Testing

@testable import loadingkit_demo

@Suite("how the demo writes counts and numbers", .timeLimit(.minutes(1)))
struct DemoFormatTests {
    @Test(
        "a noun agrees with its count",
        arguments: [
            (0, "0 requests"), (1, "1 request"), (2, "2 requests"), (15, "15 requests"),
        ]
    )
    func count(count: Int, expected: String) {
        #expect(DemoFormat.count(count, "request") == expected)
    }

    @Test("an irregular plural is written as given")
    func irregularPlural() {
        #expect(DemoFormat.count(1, "story", plural: "stories") == "1 story")
        #expect(DemoFormat.count(5, "story", plural: "stories") == "5 stories")
    }

    @Test(
        "a fraction is a whole percentage, rounded",
        arguments: [
            (0.0, "0%"), (1.0 / 3, "33%"), (0.75, "75%"), (2.0 / 3, "67%"), (1.0, "100%"),
        ]
    )
    func percent(fraction: Double, expected: String) {
        #expect(DemoFormat.percent(fraction) == expected)
    }

    @Test("milliseconds have two decimals")
    func milliseconds() {
        #expect(DemoFormat.milliseconds(.microseconds(2834)) == "2.83 ms")
        #expect(DemoFormat.milliseconds(.seconds(1)) == "1000.00 ms")
        #expect(DemoFormat.milliseconds(.zero) == "0.00 ms")
    }
}
