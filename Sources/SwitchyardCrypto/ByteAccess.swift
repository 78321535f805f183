/// Calls `body` with a contiguous view of `bytes` whose base address is never null (even when empty).
///
/// Arrays, array slices and similar collections are read in place; other collections are copied once.
/// For an empty input the pointer addresses a throwaway byte and the count is zero.
func withContiguousBytes<Result>(
    _ bytes: some Collection<UInt8>,
    _ body: (UnsafePointer<UInt8>, Int) throws -> Result
) rethrows -> Result {
    if bytes.isEmpty {
        var placeholder: UInt8 = 0
        return try withUnsafePointer(to: &placeholder) { try body($0, 0) }
    }
    if let result = try bytes.withContiguousStorageIfAvailable({ buffer in
        try body(buffer.baseAddress!, buffer.count)
    }) {
        return result
    }
    return try Array(bytes).withUnsafeBufferPointer { buffer in
        try body(buffer.baseAddress!, buffer.count)
    }
}
