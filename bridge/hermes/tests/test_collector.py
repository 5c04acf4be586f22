"""Garbage collection between calls (collector.py): the same objects collected, at other moments."""

import gc
import os
import sys
import unittest
import weakref

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, "..", "lib")]

from _ctxbench_bridge import collector  # noqa: E402


class Node:
    pass


def cycle():
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


class CollectorTest(unittest.TestCase):
    def setUp(self):
        collector._frozen = False
        gc.enable()

    def tearDown(self):
        gc.unfreeze()
        collector._frozen = False
        gc.enable()

    def test_startup_objects_are_frozen_once_and_later_ones_still_collected(self):
        collector.freeze_startup()
        frozen = gc.get_freeze_count()
        self.assertGreater(frozen, 0)
        kept = [[index] for index in range(50)]
        collector.freeze_startup()
        self.assertEqual(gc.get_freeze_count(), frozen, "a second call froze again")
        dead = cycle()
        gc.collect()
        self.assertIsNone(dead(), "a cycle made after start-up was not collected")
        self.assertEqual(len(kept), 50)

    def test_start_up_garbage_is_collected_before_the_freeze(self):
        dead = cycle()
        collector.freeze_startup()
        self.assertIsNone(dead())

    def test_the_young_generation_is_collected_when_no_request_waits(self):
        gc.collect()
        young = [[index] for index in range(400)]
        self.assertGreater(gc.get_count()[0], 100)
        collector.collect_when_idle(lambda: False)
        self.assertLess(gc.get_count()[0], 100)
        self.assertEqual(len(young), 400)

    def test_nothing_is_collected_while_a_request_waits_or_the_engine_turned_collection_off(self):
        gc.collect()
        young = [[index] for index in range(400)]
        before = gc.get_count()[0]
        collector.collect_when_idle(lambda: True)
        self.assertGreaterEqual(gc.get_count()[0], before)
        gc.disable()
        collector.collect_when_idle(lambda: False)
        self.assertGreaterEqual(gc.get_count()[0], before)
        self.assertEqual(len(young), 400)

    def test_a_young_generation_nearly_empty_is_left_alone(self):
        gc.collect()
        asked = []
        collector.collect_when_idle(lambda: asked.append(True) or False)
        self.assertEqual(asked, [], "the channel was polled for a collection not worth making")


if __name__ == "__main__":
    unittest.main()
