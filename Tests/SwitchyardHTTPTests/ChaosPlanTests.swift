import ProviderSandbox
import Testing

/// The chaos run's order plan, without running anything.
struct ChaosPlanTests {
    /// Every order of a run as long as any run here (up to 1000 orders) is one the sandboxes approve once the app
    /// pays: an amount ending in 402 or 408 declines, or stays pending at the wallet beyond any settle bound.
    @Test func everyOrderAmountIsOneTheSandboxesApprove() {
        for index in 0..<1_000 {
            for card in [false, true] {
                let amount = Int64(ChaosSettleTests.amount(index: index, card: card))
                #expect(CitconMagicAmount(amount: amount) == .approve, "order \(index) amount \(amount)")
                #expect(
                    amount % 1000 != AntomTestCard.declinedAmountSuffix
                        && amount % 1000 != AntomTestCard.processingAmountSuffix,
                    "order \(index) amount \(amount)")
            }
        }
    }
}
