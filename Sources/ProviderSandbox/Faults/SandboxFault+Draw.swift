import SwitchyardCrypto

extension SandboxFault {
    /// The deterministic draw in [0, 1) of `reference` under `seed`: the first 53 bits of
    /// HMAC-SHA256(key: seed, message: reference). The same seed and reference always give the same
    /// draw (in every process); over many references the draws are uniform, so the share of references
    /// drawn below `p` approaches `p`.
    public static func draw(seed: Int, reference: String) -> Double {
        let digest = HMAC.sha256(key: String(seed), message: reference)
        let bits = digest.prefix(8).reduce(UInt64(0)) { ($0 << 8) | UInt64($1) }
        return Double(bits >> 11) / Double(UInt64(1) << 53)
    }

    /// Whether this rule's probability selects a request: always without `probability`; with a `seed`
    /// and a `reference`, the deterministic draw; otherwise a random one.
    func selects(reference: String?) -> Bool {
        guard let probability else { return true }
        if let seed, let reference {
            return Self.draw(seed: seed, reference: reference) < probability
        }
        return Double.random(in: 0..<1) < probability
    }
}
