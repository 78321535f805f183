/// Hashes that are the same in every process, version and platform (unlike `Hasher`), for values that
/// several replicas must agree on: routing draws, advisory lock keys.
public enum StableHash {
    /// 64-bit FNV-1a of the text's UTF-8 bytes.
    public static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }
}
