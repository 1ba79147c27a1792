import t from 'tap';
import { container, inject, injectable } from '../../core/di/dependency-injection.js';

// The build (esbuild) and the tests' loader (tsx) emit no `design:paramtypes` metadata, so
// tsyringe builds a service from the @inject token of each constructor parameter alone.

t.test('a service is built from the token of each constructor parameter, with no type metadata', async (t) => {
  class Greeter {
    readonly greeting: string;
    constructor(@inject('name') name: string, @inject('punctuation') punctuation: string) {
      this.greeting = `hello ${name}${punctuation}`;
    }
  }
  t.equal(Reflect.getMetadata('design:paramtypes', Greeter), undefined, 'no metadata to infer a parameter from');
  const child = container.createChildContainer();
  child.register('name', { useValue: 'alice' });
  child.register('punctuation', { useValue: '!' });
  child.register(Greeter, { useClass: injectable(Greeter) });
  t.equal(child.resolve(Greeter).greeting, 'hello alice!');
});

t.test('a service with a constructor parameter lacking @inject is refused, naming the class and the parameter', async (t) => {
  class Careless {
    constructor(
      @inject('name') readonly name: string,
      readonly clock: { now(): number },
    ) {}
  }
  t.throws(() => injectable(Careless), {
    name: 'TypeError',
    message: 'Careless: constructor parameter 2 has no @inject(token); the build emits no type metadata to resolve it by',
  });
});
