extension Duration {
    /// A wait no test reaches: a load waits for every mutation under way as long as it
    /// takes, so that a test of the order of loads and writes does not depend on time.
    static let unbounded = Duration.seconds(86_400)
}
