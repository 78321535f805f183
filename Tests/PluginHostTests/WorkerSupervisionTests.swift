import Testing

@testable import PluginHost

/// Worker restarts and quarantine without processes: deaths in, decisions out, times as plain readings.
struct WorkerSupervisionTests {
    func supervision() -> WorkerSupervision {
        WorkerSupervision(crashLimit: 3, crashWindow: .seconds(300), restartBackoff: .milliseconds(200))
    }

    @Test func theBackOffDoublesWithEachDeathAndTheLimitQuarantines() {
        var life = supervision()
        #expect(
            life.died("crashed", at: .seconds(1))
                == .restart(at: .milliseconds(1_200), deaths: 1, delay: .milliseconds(200)))
        #expect(!life.shouldStart(at: .milliseconds(1_199)))
        #expect(life.shouldStart(at: .milliseconds(1_200)))
        life.started()
        #expect(life.state == .running)
        #expect(
            life.died("crashed", at: .seconds(2))
                == .restart(at: .milliseconds(2_400), deaths: 2, delay: .milliseconds(400)))
        life.started()
        let third = life.died("crashed", at: .seconds(3))
        #expect(third == .quarantine(reason: "crashed; 3 worker deaths within 300 s", deaths: 3))
        #expect(life.quarantineReason == "crashed; 3 worker deaths within 300 s")
        #expect(!life.shouldStart(at: .seconds(1_000)))
        #expect(life.died("again", at: .seconds(4)) == .none, "a quarantined plugin stays so")
    }

    @Test func deathsOutsideTheWindowAreForgotten() {
        var life = supervision()
        _ = life.died("crashed", at: .seconds(0))
        life.started()
        _ = life.died("crashed", at: .seconds(10))
        life.started()
        // 310 s after the first death: only the second is within the window.
        #expect(
            life.died("crashed", at: .seconds(310))
                == .restart(at: .milliseconds(310_400), deaths: 2, delay: .milliseconds(400)))
    }

    @Test func aFailedRestartCountsAsADeathAndAStoppedInstanceStartsNothing() {
        var life = supervision()
        _ = life.died("crashed", at: .seconds(1))
        #expect(
            life.died("no instance", at: .milliseconds(1_200))
                == .restart(at: .milliseconds(1_600), deaths: 2, delay: .milliseconds(400)))
        life.stop()
        #expect(!life.shouldStart(at: .seconds(2)))
        #expect(life.died("crashed", at: .seconds(3)) == .none)
    }
}
