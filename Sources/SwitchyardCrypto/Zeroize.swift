import COpenSSL

extension Array where Element == UInt8 {
    /// Overwrites the bytes with zeros in a way the optimiser keeps (best effort: earlier copies are not reached).
    mutating func zeroize() {
        withUnsafeMutableBytes { buffer in
            if let base = buffer.baseAddress {
                OPENSSL_cleanse(base, buffer.count)
            }
        }
    }
}
