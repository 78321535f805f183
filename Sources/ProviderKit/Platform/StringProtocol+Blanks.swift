extension StringProtocol {
    /// The text without its leading and trailing blanks: tabs and Unicode space separators (category Zs),
    /// as Foundation's `CharacterSet.whitespaces` counts them; line breaks stay.
    public func trimmingBlanks() -> String {
        let scalars = Substring(self).unicodeScalars
        guard let first = scalars.firstIndex(where: { !ProviderText.isBlank($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !ProviderText.isBlank($0) }) ?? first
        return String(Substring(scalars[first...last]))
    }
}
