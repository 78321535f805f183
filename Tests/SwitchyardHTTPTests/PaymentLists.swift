/// Query parts for tests that read payments' heavy parts from the payments list.
enum PaymentLists {
    /// Every heavy part a payments list embeds only when asked (API version 2026-12-01 on).
    static let expandAll = "expand[]=attempts&expand[]=operations&expand[]=routing"
}
