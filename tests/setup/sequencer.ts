import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Vitest's order (the longest files first by the last run's times; by size in a fresh clone,
 * which has no times), with the tests of the server as a process dealt out among the others.
 * They are the longest files (servers started, signals sent, waits on a process), so in a fresh
 * clone by size alone one of them could start last and keep a core alone busy at the end; all
 * of them at the start would leave the second worker waiting for the first to make the build.
 */
export default class ProcessTestsSpreadOut extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const isProcessTest = (file: TestSpecification) => file.moduleId.includes("/tests/process/");
    const processTests = sorted.filter(isProcessTest);
    const others = sorted.filter((file) => !isProcessTest(file));
    const dealt: TestSpecification[] = [];
    while (processTests.length > 0 || others.length > 0) {
      if (processTests.length > 0) dealt.push(processTests.shift()!);
      if (others.length > 0) dealt.push(others.shift()!);
    }
    return dealt;
  }
}
