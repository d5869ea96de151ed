/// Where retry jitter comes from: the system generator, or a seeded one that makes
/// every delay reproducible.
///
/// ```swift
/// var retry = RetryPolicy.standard
/// retry.random = .seeded(42)
/// ```
public struct RandomSource: Sendable {
    private let draw: @Sendable () -> Double

    /// A source that returns `draw()`, which must lie in `0..<1`.
    ///
    /// - Parameter draw: Returns the next number, in `0..<1`; called from any thread.
    public init(_ draw: @escaping @Sendable () -> Double) {
        self.draw = draw
    }

    /// A number in `0..<1`.
    ///
    /// - Returns: The next number of the source.
    public func next() -> Double { draw() }

    /// The system's random number generator.
    public static let system = RandomSource { Double.random(in: 0..<1) }

    /// A reproducible sequence (SplitMix64) starting from `seed`.
    ///
    /// - Parameter seed: Where the sequence starts: the same seed gives the same
    ///   numbers.
    /// - Returns: The seeded source.
    public static func seeded(_ seed: UInt64) -> RandomSource {
        let state = Locked(seed)
        return RandomSource {
            let bits = state.withLock { state in
                state &+= 0x9E37_79B9_7F4A_7C15
                var z = state
                z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                return z ^ (z >> 31)
            }
            return Double(bits >> 11) / Double(1 << 53)
        }
    }
}
