import Testing

@testable import switchyard

/// The routing experiment's arithmetic: windows of payments and the point where A's share returns.
@Suite struct BenchRoutingReportTests {
    private func payments(_ accounts: String, approved: Bool? = true) -> [BenchRoutingPayment] {
        accounts.map { BenchRoutingPayment(account: $0 == "A" ? .a : $0 == "B" ? .b : nil, approved: approved) }
    }

    @Test func windowsCountSharesAmongRoutedPaymentsAndRatesAmongDefiniteAnswers() {
        var all = payments("AAAB") + payments("BBBB", approved: false) + payments("x", approved: nil)
        all[1].approved = false
        let windows = BenchRoutingReport.windows(all, size: 4)
        #expect(windows.map(\.first) == [1, 5, 9])
        #expect(windows.map(\.last) == [4, 8, 9])
        #expect(windows[0].shareA == 0.75)
        #expect(windows[0].authorisationRate == 0.75)
        #expect(windows[1].shareB == 1)
        #expect(windows[1].authorisationRate == 0)
        #expect(windows[2].errors == 1)
        #expect(windows[2].shareA == 0 && windows[2].authorisationRate == 0)
        let overall = BenchRoutingReport.window(all, first: 1)
        #expect(overall.last == 9)
        #expect(overall.shareA == 3.0 / 8.0)
        #expect(overall.authorisationRate == 3.0 / 8.0)
    }

    @Test func recoveryCountsPaymentsUntilTheLastWindowIsHalfA() {
        #expect(BenchRoutingExperiment.firstReturn(payments("BBB"), window: 4) == nil)
        #expect(BenchRoutingExperiment.firstReturn(payments("ABAB"), window: 4) == 4)
        #expect(BenchRoutingExperiment.firstReturn(payments("BBBBBABA"), window: 4) == 8)
        #expect(BenchRoutingExperiment.firstReturn(payments("BBBBBBAB"), window: 4) == nil)
    }
}
